package dev.tidemill.bench.streams;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop WebSocket echo on one {@link ClientLoop}, without Netty's WebSocket codec on the
 * hot path: each connection sends the opening handshake itself (RFC 6455 4.1, a random key per
 * connection, the server's {@code Sec-WebSocket-Accept} checked, no extension offered) and then
 * keeps one binary message of a fixed size in flight, written from a frame encoded and masked
 * once per connection, and reads the echoes with a {@link WsFrameReader} (header lengths only,
 * the payload counted, never copied). A message carries its send time ({@code System.nanoTime()},
 * 8 bytes) at its start; the echo must carry the same 8 bytes back (one message is in flight, so
 * anything else is a wrong echo) and its arrival minus them is the round trip, recorded in
 * microseconds while {@link #record} is on. Writes made while reading a batch are flushed once, at
 * {@code channelReadComplete}. Counters belong to the loop's thread.
 */
final class WsEchoClient {
    /** Largest message the client accepts back, bytes (the largest size measured is 16 KiB). */
    static final int MAX_MESSAGE = 1 << 20;

    private static final String ACCEPT_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    private static final SecureRandom RANDOM = new SecureRandom();
    /** A close frame with no status, masked: FIN + opcode 8, mask bit + length 0, then the key. */
    private static final byte[] CLOSE_HEADER = {(byte) 0x88, (byte) 0x80};

    /**
     * What the window saw.
     *
     * @param roundTrips echoes received while recording
     * @param wrongSize echoes whose length was not the size sent
     * @param wrongEcho echoes that were not the message in flight (another send time, or not binary)
     * @param latencyMicros round-trip time, microseconds (a copy)
     */
    record Snapshot(long roundTrips, long wrongSize, long wrongEcho, Histogram latencyMicros) {}

    private final int size;
    /**
     * RFC 6455 5.3 asks a client for an unpredictable masking key per frame, against proxies that
     * would cache what looks like a request; it has no bearing on a server's work, which XORs every
     * payload byte whatever the key. A benchmark client on loopback may therefore use one key per
     * run, chosen at random, which lets a connection's frame be masked once and only its 8-byte send
     * time be re-masked per message. The key is never 0: Netty's decoder skips the XOR for a zero key,
     * and the servers must all do the same work.
     */
    private final int maskKey;
    private final Histogram latency = new Histogram(3_600_000_000L, 3);
    private final List<Echo> connections = new ArrayList<>();
    private boolean recording;
    private boolean running;
    private long roundTrips;
    private long wrongSize;
    private long wrongEcho;

    /** @param size bytes per message, at least 8 */
    WsEchoClient(int size) {
        if (size < Long.BYTES) throw new IllegalArgumentException("messages must hold their 8-byte send time");
        if (size > MAX_MESSAGE) throw new IllegalArgumentException("messages must be at most " + MAX_MESSAGE + " bytes");
        this.size = size;
        int k;
        do k = RANDOM.nextInt(); while (k == 0);
        this.maskKey = k;
    }

    /**
     * Opens the connections and waits for every handshake.
     *
     * @param loop where they live
     * @param port the server's port
     * @param path the WebSocket path
     * @param count connections
     * @return the channels
     */
    List<Channel> connect(ClientLoop loop, int port, String path, int count) {
        ChannelInitializer<SocketChannel> init = new ChannelInitializer<>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new Echo(port, path));
            }
        };
        return loop.open(port, count, init, ch -> ch.pipeline().get(Echo.class).ready, 30);
    }

    /** Starts every connection's loop of messages (call on the loop's thread). */
    void start() {
        running = true;
        for (Echo e : connections) {
            e.send();
            e.ctx.flush();
        }
    }

    /**
     * @param on whether round trips count from now on (call on the loop's thread); turning it on
     *     resets the counters
     */
    void record(boolean on) {
        if (on) {
            latency.reset();
            roundTrips = 0;
            wrongSize = 0;
            wrongEcho = 0;
        }
        recording = on;
    }

    /** Sends no new messages and closes each connection with a close frame (call on the loop's thread). */
    void stop() {
        running = false;
        recording = false;
        for (Echo e : connections) {
            e.ctx.writeAndFlush(Unpooled.buffer(6).writeBytes(CLOSE_HEADER).writeInt(maskKey));
        }
    }

    /** @return the counters (call on the loop's thread) */
    Snapshot snapshot() {
        return new Snapshot(roundTrips, wrongSize, wrongEcho, latency.copy());
    }

    /**
     * @param size payload bytes
     * @param maskKey the masking key
     * @param alloc where the buffer comes from
     * @return a masked binary frame (FIN set) of {@code size} zero bytes; its send time goes at
     *     {@link #payloadOffset}
     */
    static ByteBuf frame(int size, int maskKey, io.netty.buffer.ByteBufAllocator alloc) {
        ByteBuf f = alloc.directBuffer(payloadOffset(size) + size);
        f.writeByte(0x82);
        if (size < 126) {
            f.writeByte(0x80 | size);
        } else if (size <= 0xffff) {
            f.writeByte(0x80 | 126).writeShort(size);
        } else {
            f.writeByte(0x80 | 127).writeLong(size);
        }
        f.writeInt(maskKey);
        // Zeros masked are the key's bytes, repeated from the payload's start (RFC 6455 5.3).
        for (int i = 0; i < size; i++) f.writeByte(maskKey >>> (24 - 8 * (i & 3)));
        return f;
    }

    /** @return where a frame of {@code size} payload bytes starts its payload: its header and key */
    static int payloadOffset(int size) {
        return (size < 126 ? 2 : size <= 0xffff ? 4 : 10) + 4;
    }

    /** One connection. */
    private final class Echo extends RawConnection implements WsFrameReader.Messages {
        private final String key;
        private final WsFrameReader frames = new WsFrameReader(MAX_MESSAGE, this);
        private final long longMask = (long) maskKey << 32 | (maskKey & 0xffffffffL);
        private ByteBuf frame;
        private long sentNanos;
        private boolean unflushed;

        Echo(int port, String path) {
            this(port, path, newKey());
        }

        private Echo(int port, String path, String key) {
            super("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + key + "\r\nSec-WebSocket-Version: 13\r\n\r\n");
            this.key = key;
        }

        @Override
        void accept(ResponseHead head) {
            if (head.status() != 101) throw new IllegalStateException("WebSocket handshake answered " + head.status());
            if (!head.header("upgrade").equalsIgnoreCase("websocket")) {
                throw new IllegalStateException("101 without Upgrade: websocket");
            }
            if (!head.header("sec-websocket-accept").equals(acceptOf(key))) {
                throw new IllegalStateException("wrong Sec-WebSocket-Accept: " + head.header("sec-websocket-accept"));
            }
            if (!head.header("sec-websocket-extensions").isEmpty()) {
                throw new IllegalStateException("an extension was not offered: " + head.header("sec-websocket-extensions"));
            }
            frame = frame(size, maskKey, ctx.alloc());
            connections.add(this);
        }

        void send() {
            // One message is in flight, so its echo arrives only after the server has read all of the
            // frame, i.e. after the socket took it and Netty released its duplicate: the frame is
            // ours again. Should anything still hold it, a fresh copy goes out instead.
            if (frame.refCnt() != 1) {
                ByteBuf held = frame;
                frame = frame.copy();
                held.release();
            }
            sentNanos = System.nanoTime();
            frame.setLong(payloadOffset(size), sentNanos ^ longMask);
            ctx.write(frame.retainedDuplicate(), ctx.voidPromise());
            unflushed = true;
        }

        @Override
        void body(ByteBuf b) {
            frames.read(b);
        }

        @Override
        public void message(int opcode, long length, long stamp, boolean stamped) {
            if (recording) {
                if (length != size) wrongSize++;
                if (opcode != 2 || !stamped || stamp != sentNanos) {
                    wrongEcho++;
                } else {
                    latency.recordValue(Math.max(0, (System.nanoTime() - stamp) / 1_000));
                }
                roundTrips++;
            }
            if (running) send();
        }

        @Override
        public void control(int opcode) {
            // Pings and pongs are not part of the measurement; a close ends this connection's loop.
            if (opcode == 8) connections.remove(this);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (unflushed) {
                unflushed = false;
                ctx.flush();
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            connections.remove(this);
            super.channelInactive(ctx);
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (frame != null) {
                frame.release();
                frame = null;
            }
            super.handlerRemoved(ctx);
        }
    }

    private static String newKey() {
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        return Base64.getEncoder().encodeToString(nonce);
    }

    /**
     * @param key a {@code Sec-WebSocket-Key}
     * @return the {@code Sec-WebSocket-Accept} a server must answer it with (RFC 6455 4.2.2)
     */
    static String acceptOf(String key) {
        try {
            byte[] sha1 = MessageDigest.getInstance("SHA-1").digest((key + ACCEPT_GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(sha1);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
