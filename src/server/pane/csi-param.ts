/** A CSI parameter as xterm's parser hooks hand it over: a number, or [value, ...sub-parameters]. */
export type CsiParam = number | number[];

/** A parameter's value, 0 when absent (as an omitted parameter reads). */
export function csiParamValue(param: CsiParam | undefined): number {
  return (Array.isArray(param) ? param[0] : param) ?? 0;
}
