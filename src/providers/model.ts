// Providers implement the Model interface defined in core/ (the loop's side of it); re-exported for the adapters here.
export * from '../core/model.js';
