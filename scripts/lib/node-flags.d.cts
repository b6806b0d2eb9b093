/** The node flags every Tiendita process runs with; see node-flags.cjs. */
export declare function serviceNodeFlags(env?: Record<string, string | undefined>): string[];
export declare const SMALL_MACHINE_CORES: number;
