// A host function no runner provides (imported from the module `elsewhere`).
export declare function launch_missiles(): void;
