import type { WebSocket } from 'ws';
import { Faults } from '../../lib/simulator/chaos/faults';
import { Peer, Peers } from '../../lib/simulator/streams/peers';
import { startWsPairs, type WsPairs } from '../helpers/wsPairs';

describe('Peer', () => {
  let pairs: WsPairs;
  beforeEach(async () => {
    pairs = await startWsPairs();
  });
  afterEach(() => pairs.close());

  const peerOf = async (faults = new Faults()) => {
    const { server, client } = await pairs.connect();
    return { peer: new Peer(1, 'public', server, faults), server, client, faults };
  };
  /** Resolves once the server has read every frame the client sent before this call. */
  const roundTrip = (server: WebSocket, client: WebSocket): Promise<void> =>
    new Promise((resolve) => {
      server.once('message', () => resolve());
      client.send('marker');
    });

  it('sends text as text and bytes as binary while open, and reports it', async () => {
    const { peer, client } = await peerOf();
    expect(peer.open).toBe(true);
    expect(peer.send('{"a":1}')).toBe(true);
    expect(peer.send(Uint8Array.of(1, 2, 3))).toBe(true);
    expect(await client.nextFrames(2)).toEqual(['{"a":1}', Uint8Array.of(1, 2, 3)]);
  });

  it('drops sends while its stream is stalled, and sends again after resume', async () => {
    const { peer, client, faults } = await peerOf();
    faults.stall('all');
    expect(peer.stalled).toBe(true);
    expect(peer.send('lost')).toBe(false);
    faults.resume();
    expect(peer.send('after')).toBe(true);
    expect(await client.nextFrames(1)).toEqual(['after']);
  });

  it('runs client frames at once, drops them during a stall, holds them for flushHeld with inbound hold', async () => {
    const { peer, faults } = await peerOf();
    const run: string[] = [];
    peer.receive(() => run.push('now'));
    faults.stall('public');
    peer.receive(() => run.push('dropped'));
    faults.resume();
    faults.stall('public', 'hold');
    peer.receive(() => run.push('held 1'));
    peer.receive(() => run.push('held 2'));
    expect(run).toEqual(['now']);
    faults.resume();
    peer.flushHeld();
    peer.flushHeld();
    expect(run).toEqual(['now', 'held 1', 'held 2']);
  });

  it('closes its socket with 1011 when a handler throws, and nothing else escapes', async () => {
    const { peer, client } = await peerOf();
    expect(() =>
      peer.receive(() => {
        throw new Error('bug');
      }),
    ).not.toThrow();
    expect(await client.closed).toEqual({ code: 1011, reason: 'internal error' });
    expect(peer.open).toBe(false);
    expect(peer.send('late')).toBe(false);
  });

  it('half-open: sends "succeed" but reach nobody, client frames are lost, no close frame is sent', async () => {
    const { peer, server, client } = await peerOf();
    const run: string[] = [];
    peer.blackHole();
    expect(peer.blackHoled).toBe(true);
    expect(peer.send('into the void')).toBe(true);
    peer.receive(() => run.push('lost'));
    peer.close(1000, 'bye');
    expect(peer.open).toBe(true);
    server.terminate();
    expect((await client.closed).code).toBe(1006);
    expect(client.frames).toEqual([]);
    expect(run).toEqual([]);
  });

  it('answers protocol pings itself, but not while stalled', async () => {
    const { client, server, faults } = await peerOf();
    const pongs: string[] = [];
    const pong = () => new Promise<void>((resolve) => client.ws.once('pong', (data) => resolve(void pongs.push(data.toString()))));
    client.ws.ping('one');
    await pong();
    faults.stall('public');
    client.ws.ping('two');
    await roundTrip(server, client.ws);
    faults.resume();
    client.ws.ping('three');
    await pong();
    expect(pongs).toEqual(['one', 'three']);
  });

  it('closes with a close frame', async () => {
    const { peer, client } = await peerOf();
    peer.close(4000, 'going');
    expect(await client.closed).toEqual({ code: 4000, reason: 'going' });
    peer.close(4001, 'again');
  });
});

describe('Peers', () => {
  let pairs: WsPairs;
  beforeEach(async () => {
    pairs = await startWsPairs();
  });
  afterEach(() => pairs.close());

  it('numbers peers, counts accepted and open ones per stream, and selects by stream', async () => {
    const peers = new Peers(new Faults());
    const a = peers.add('public', (await pairs.connect()).server);
    const b = peers.add('private', (await pairs.connect()).server);
    const c = peers.add('public', (await pairs.connect()).server);
    expect([a.id, b.id, c.id]).toEqual([1, 2, 3]);
    expect(peers.of('public')).toEqual([a, c]);
    expect(peers.of('private')).toEqual([b]);
    expect(peers.of('all')).toEqual([a, b, c]);
    expect([peers.count('public'), peers.count('private')]).toEqual([2, 1]);
    expect(peers.accepted).toEqual({ public: 2, private: 1 });
  });

  it('forgets a peer when its socket closes, but still counts it as accepted', async () => {
    const peers = new Peers(new Faults());
    const pair = await pairs.connect();
    peers.add('public', pair.server);
    const closed = new Promise<void>((resolve) => pair.server.once('close', () => resolve()));
    pair.client.ws.close();
    await closed;
    expect(peers.count('public')).toBe(0);
    expect(peers.accepted.public).toBe(1);
  });

  it('terminates every socket at once', async () => {
    const peers = new Peers(new Faults());
    const one = await pairs.connect();
    const two = await pairs.connect();
    peers.add('public', one.server);
    peers.add('private', two.server);
    peers.terminateAll();
    expect(peers.of('all')).toEqual([]);
    expect([(await one.client.closed).code, (await two.client.closed).code]).toEqual([1006, 1006]);
  });

  it('gives each peer the shared fault state', async () => {
    const faults = new Faults();
    const peers = new Peers(faults);
    const p = peers.add('private', (await pairs.connect()).server);
    faults.stall('private');
    expect(p.stalled).toBe(true);
    expect(p.send('x')).toBe(false);
  });
});
