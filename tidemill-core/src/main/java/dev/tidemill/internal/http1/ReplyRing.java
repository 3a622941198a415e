package dev.tidemill.internal.http1;

import dev.tidemill.internal.exchange.Exchange;
import dev.tidemill.internal.exchange.Reply;

/**
 * The exchanges of one connection that were read but not yet answered, in request order, with
 * what HTTP/1.1 keeps per request (its reply once produced, its request deadline, its framing
 * flags). It owns the pipelining invariant: at most {@code maxPipelined} entries, written back
 * strictly in the order they were read ({@link #next()} is always the oldest). Parallel arrays,
 * sized to a power of two (two slots at first, doubled as a client pipelines deeper), so a request
 * costs no allocation here and a slot is an index mask.
 * Event-loop confined.
 */
final class ReplyRing {
    static final long NONE = Long.MAX_VALUE;

    /** The request was HTTP/1.0. */
    static final int HTTP10 = 1;
    /** The connection stays open after this exchange's reply (as far as the request goes). */
    static final int KEEP_ALIVE = 2;
    /** A {@code 100 Continue} is owed once this exchange is next to write. */
    static final int CONTINUE_PENDING = 4;

    private final int max;
    private int mask;
    private Exchange[] exchanges;
    private Reply[] replies;
    private long[] deadlines;
    private byte[] flags;
    private int nextSeq;
    private int nextWrite;
    private int outstanding;

    /** @param maxPipelined the most exchanges held at once, at least 1 */
    ReplyRing(int maxPipelined) {
        this.max = maxPipelined;
        // Two slots to start with (most connections never pipeline), doubled up to the power of two
        // at or above maxPipelined as a client pipelines deeper.
        int size = Math.min(2, Integer.highestOneBit(Math.max(1, maxPipelined - 1)) << 1);
        this.mask = size - 1;
        this.exchanges = new Exchange[size];
        this.replies = new Reply[size];
        this.deadlines = new long[size];
        this.flags = new byte[size];
    }

    /** @return whether another request must wait: {@code maxPipelined} are held */
    boolean full() {
        return outstanding >= max;
    }

    /** @return how many exchanges are held */
    int outstanding() {
        return outstanding;
    }

    /** @return the number the next {@link #add} will get */
    int nextId() {
        return nextSeq;
    }

    /** Adds the exchange just opened (its id is {@link #nextId()}); the caller checked {@link #full()}. */
    void add(Exchange ex, int flagBits) {
        if (full()) throw new IllegalStateException("more than " + max + " pipelined requests");
        if (ex.id() != nextSeq) throw new IllegalStateException("exchange " + ex.id() + " added as " + nextSeq);
        if (outstanding == exchanges.length) grow();
        int i = nextSeq++ & mask;
        exchanges[i] = ex;
        replies[i] = null;
        deadlines[i] = NONE;
        flags[i] = (byte) flagBits;
        outstanding++;
    }

    private void grow() {
        int n = exchanges.length * 2;
        Exchange[] e = new Exchange[n];
        Reply[] r = new Reply[n];
        long[] d = new long[n];
        byte[] f = new byte[n];
        for (int k = 0; k < outstanding; k++) {
            int seq = nextWrite + k;
            int from = seq & mask;
            int to = seq & (n - 1);
            e[to] = exchanges[from];
            r[to] = replies[from];
            d[to] = deadlines[from];
            f[to] = flags[from];
        }
        exchanges = e;
        replies = r;
        deadlines = d;
        flags = f;
        mask = n - 1;
    }

    /** @return whether {@code ex} is still held (false once written, or after {@link #closeAll}) */
    boolean holds(Exchange ex) {
        return exchanges[ex.id() & mask] == ex;
    }

    /** @return the oldest exchange, the next to write; null if none */
    Exchange next() {
        return outstanding == 0 ? null : exchanges[nextWrite & mask];
    }

    Reply reply(Exchange ex) {
        return replies[ex.id() & mask];
    }

    void reply(Exchange ex, Reply reply) {
        replies[ex.id() & mask] = reply;
    }

    boolean flag(Exchange ex, int bit) {
        return (flags[ex.id() & mask] & bit) != 0;
    }

    void clearFlag(Exchange ex, int bit) {
        flags[ex.id() & mask] &= (byte) ~bit;
    }

    void setFlag(Exchange ex, int bit) {
        flags[ex.id() & mask] |= (byte) bit;
    }

    /** @param at when the handler must have answered, in ticker nanos; {@link #NONE} exempts it */
    void deadline(Exchange ex, long at) {
        deadlines[ex.id() & mask] = at;
    }

    /** Removes the oldest exchange: its reply is written (or dropped). */
    void finish() {
        int i = nextWrite++ & mask;
        Exchange done = exchanges[i];
        if (done != null && done.hasEndActions()) done.ended();
        exchanges[i] = null;
        replies[i] = null;
        outstanding--;
    }

    /**
     * Expires every exchange whose deadline passed without a reply ({@link Exchange#expire()}
     * sends its 504 through the sink, which may write and remove it meanwhile).
     *
     * @return the earliest deadline still pending, or {@link #NONE}
     */
    long expire(long now) {
        // Collected first: expiring writes the 504 through the sink, which may remove entries.
        Exchange[] due = null;
        int n = 0;
        for (int k = 0; k < outstanding; k++) {
            int i = (nextWrite + k) & mask;
            if (exchanges[i] != null && replies[i] == null && deadlines[i] <= now) {
                deadlines[i] = NONE;
                if (due == null) due = new Exchange[outstanding];
                due[n++] = exchanges[i];
            }
        }
        for (int k = 0; k < n; k++) due[k].expire();
        long next = NONE;
        for (int k = 0; k < outstanding; k++) {
            int i = (nextWrite + k) & mask;
            if (exchanges[i] != null && replies[i] == null) next = Math.min(next, deadlines[i]);
        }
        return next;
    }

    /** The connection closed: every exchange still held is told, every unwritten reply released. */
    void closeAll() {
        for (int i = 0; i < exchanges.length; i++) {
            Exchange ex = exchanges[i];
            if (ex == null) continue;
            exchanges[i] = null;
            Reply r = replies[i];
            replies[i] = null;
            ex.transportClosed();
            if (ex.hasEndActions()) ex.ended();
            if (r != null) r.release();
        }
        outstanding = 0;
    }
}
