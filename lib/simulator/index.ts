/**
 * ex-streams/simulator: a local server implementing the service side of the specification (Node only).
 *
 * @packageDocumentation
 */
export {};
