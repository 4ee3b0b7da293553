import type { GstRates } from "~/util/money";
import { getSiteSettings } from "./site-settings.server";

/** The institute's fee settings (app/schemas/site-settings.ts, group "fees") as the fee services use them: rates in basis points. */
export type FeeSettings = {
  gstin: string;
  legalName: string;
  address: string;
  state: string;
  prefix: string;
  sac: string;
  rates: GstRates;
  upiId: string;
  upiPayeeName: string;
  /** Days around a due date its reminders go, sorted ("-3, 0, 3, 7" → [-3, 0, 3, 7]). */
  reminderDays: number[];
};

const bp = (percent: number) => Math.round(percent * 100);

export async function feeSettings(): Promise<FeeSettings> {
  const s = await getSiteSettings();
  return {
    gstin: s.gstin,
    legalName: s.invoiceLegalName,
    address: s.invoiceAddress,
    state: s.invoiceState,
    prefix: s.invoicePrefix,
    sac: s.sacCode,
    rates: { cgstBp: bp(s.cgstRate), sgstBp: bp(s.sgstRate), igstBp: bp(s.igstRate) },
    upiId: s.upiId,
    upiPayeeName: s.upiPayeeName,
    reminderDays: [...new Set(s.reminderDays.split(",").map((d) => Number(d.trim())))].sort((a, b) => a - b),
  };
}

/** Where a supply to a student in `state` is taxed: within the institute's state, another, or not at all (no GSTIN). */
export function taxPlace(settings: Pick<FeeSettings, "gstin" | "state">, state: string): "intra" | "inter" | "none" {
  if (!settings.gstin) return "none";
  return state === settings.state ? "intra" : "inter";
}

/** The total GST rate (basis points) for a supply taxed at `place`. */
export function totalRateBp(settings: Pick<FeeSettings, "rates">, place: "intra" | "inter" | "none"): number {
  if (place === "none") return 0;
  return place === "intra" ? settings.rates.cgstBp + settings.rates.sgstBp : settings.rates.igstBp;
}
