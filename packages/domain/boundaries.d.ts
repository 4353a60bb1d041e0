export declare const MODULES: string[];
export declare const MAY_USE: Record<string, string[]>;
export declare const ABOVE: string[];
export declare function boundaryConfigs(src: string): object[];
export declare const TRANSPORT: string[];
