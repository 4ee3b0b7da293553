import QRCode from "qrcode";

/**
 * UPI payment links and their QR codes (NPCI's UPI linking specification: `upi://pay?pa=&pn=&am=&cu=&tn=`), drawn on
 * the server as SVG with the `qrcode` package, so the page shows them without JavaScript. A UPI app reading the code
 * opens a payment to `pa` of `am` rupees with `tn` as its note.
 */
export function upiLink(input: { pa: string; pn: string; am: string; tn: string }): string {
  const q = [`pa=${encodeURIComponent(input.pa)}`, `pn=${encodeURIComponent(input.pn)}`, `am=${input.am}`, "cu=INR", `tn=${encodeURIComponent(input.tn)}`];
  return `upi://pay?${q.join("&")}`;
}

/** The QR code of a text as an SVG element (black modules on white, a 4-module quiet zone, error correction M). */
export function qrSvg(text: string, title: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4, width: 240 }).then((svg) =>
    svg.replace("<svg ", `<svg role="img" style="max-width:100%;height:auto" aria-label="${title.replace(/[<>&"]/g, "")}" `),
  );
}
