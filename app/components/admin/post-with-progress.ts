/**
 * POSTs a form with XMLHttpRequest, because fetch() reports no upload progress and the course form
 * shows "Uploading... N%" (spec §2). Resolves with the status and the parsed JSON answer.
 */
export function postWithProgress<T>(
  url: string,
  body: FormData,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<{ status: number; data: T | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "json";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => resolve({ status: xhr.status, data: (xhr.response as T | null) ?? null });
    // Its message is shown as it is (spec §8: the error's own message when the server sent none).
    xhr.onerror = () => reject(new Error("The server could not be reached. Please check your connection and try again."));
    xhr.onabort = () => reject(new DOMException("Aborted", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}
