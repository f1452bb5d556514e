import { gzipSync, strToU8, zipSync } from 'fflate';

/** The public-stream data envelope of the specification. @internal */
export interface EnvelopeInput {
  readonly symbol: string;
  readonly topic: string;
  readonly klineType?: string;
  readonly binary: boolean;
  readonly data: readonly object[];
  readonly first: boolean;
  readonly sendTime: number;
  readonly id: string;
}

/** Envelope JSON text: `params.binary` is text ("true"/"false") as in the specification's example responses. @internal */
export function envelopeText(e: EnvelopeInput): string {
  const params: Record<string, string> = { realtimeInterval: '24h', binary: String(e.binary) };
  if (e.klineType !== undefined) params['klineType'] = e.klineType;
  return JSON.stringify({
    symbol: e.symbol,
    symbolName: e.symbol,
    topic: e.topic,
    params,
    data: e.data,
    f: e.first,
    sendTime: e.sendTime,
    shared: false,
    id: e.id,
  });
}

/** A zip file holding one deflated entry `data.json` with `text`. @internal */
export function zipText(text: string): Uint8Array {
  return zipSync({ 'data.json': [strToU8(text), { level: 6 }] });
}

/** A gzip stream (one member) holding `text`. @internal */
export function gzipText(text: string): Uint8Array {
  return gzipSync(strToU8(text), { level: 6 });
}
