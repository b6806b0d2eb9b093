/** Whether a listener can bind `port` on 127.0.0.1 right now. */
export declare function portFree(port: number): Promise<boolean>;
/** `size` consecutive free ports below the ephemeral range; the first is returned. */
export declare function freePortBlock(size?: number): Promise<number>;
/** One free port below the ephemeral range. */
export declare function freePort(): Promise<number>;
