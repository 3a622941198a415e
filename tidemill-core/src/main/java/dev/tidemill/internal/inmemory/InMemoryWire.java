package dev.tidemill.internal.inmemory;

import dev.tidemill.InMemoryConnection;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.channel.FileRegion;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.util.ReferenceCountUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One in-memory connection: the first handler of its channel's pipeline, standing where the
 * socket would. Inbound, the client's writes become reads (held back while the server has
 * auto-read off and has not asked for a read, as TCP holds them in the receive buffer); outbound,
 * every write is copied into the client's buffer and completed at once, so the connection is
 * always writable (a client that reads nothing does not push back; see {@link dev.tidemill.InMemoryServer}).
 *
 * <p>Threads: everything that touches the channel runs on the host's event loop. The channel is
 * an {@code EmbeddedChannel}, whose own loop runs tasks only when asked (Netty queues a close's
 * inactive event there, for one), so {@link #pump()} runs them after each step. The client's side
 * ({@link #read}, {@link #write}) is any thread; the received bytes are guarded by {@link #lock}.
 */
final class InMemoryWire extends ChannelDuplexHandler implements InMemoryConnection {
    private final EventLoop loop;
    private final EmbeddedChannel channel;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** What the server wrote and the client has not read: guarded by {@link #lock}. */
    private final ArrayDeque<byte[]> received = new ArrayDeque<>();
    private int receivedPos;
    private boolean serverClosed;
    private volatile boolean open = true;
    private volatile boolean outputShut;

    // on the loop
    private final ArrayDeque<byte[]> unread = new ArrayDeque<>();
    private boolean readRequested;
    private boolean finPending;
    private boolean finDelivered;
    private boolean delivering;

    InMemoryWire(EventLoop loop, EmbeddedChannel channel) {
        this.loop = loop;
        this.channel = channel;
    }

    // ------------------------------------------------------------------ client side, any thread

    @Override
    public boolean write(byte[] bytes) {
        byte[] copy = bytes.clone();
        if (!open || outputShut) return false;
        return onLoop(() -> {
            if (!channel.isOpen()) return;
            unread.add(copy);
            deliver();
        });
    }

    @Override
    public int read(byte[] buf, int off, int len, Duration wait) throws InterruptedException {
        java.util.Objects.checkFromIndexSize(off, len, buf.length);
        long deadline = System.nanoTime() + wait.toNanos();
        lock.lockInterruptibly();
        try {
            while (received.isEmpty()) {
                if (serverClosed) return -1;
                long left = deadline - System.nanoTime();
                if (left <= 0) return 0;
                changed.awaitNanos(left);
            }
            int n = 0;
            while (n < len && !received.isEmpty()) {
                byte[] first = received.peek();
                int k = Math.min(len - n, first.length - receivedPos);
                System.arraycopy(first, receivedPos, buf, off + n, k);
                n += k;
                receivedPos += k;
                if (receivedPos == first.length) {
                    received.poll();
                    receivedPos = 0;
                }
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutdownOutput() {
        outputShut = true;
        onLoop(() -> {
            finPending = true;
            deliver();
        });
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
        if (!onLoop(this::closeChannel)) serverClosed();
    }

    // ------------------------------------------------------------------ the loop

    /** Closes the channel (client left, or the host stops) and runs what the close queued. */
    void closeChannel() {
        channel.close();
        pump();
    }

    /** Runs the tasks Netty queued on the embedded channel's own loop (a close's inactive event). */
    void pump() {
        channel.runPendingTasks();
    }

    /** The channel, for the host's drain event. */
    EmbeddedChannel channel() {
        return channel;
    }

    /**
     * Hands the client's bytes to the pipeline, one write per read, while the server reads:
     * auto-read on, or a read asked for since the last one. Then the FIN, if the client sent it.
     */
    private void deliver() {
        if (delivering) return; // a read() from inside channelRead: the loop below continues
        delivering = true;
        try {
            while (channel.isOpen() && (channel.config().isAutoRead() || readRequested)) {
                byte[] b = unread.poll();
                if (b == null) {
                    if (finPending && !finDelivered) {
                        finDelivered = true;
                        readRequested = false;
                        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownEvent.INSTANCE);
                        channel.pipeline().fireUserEventTriggered(ChannelInputShutdownReadComplete.INSTANCE);
                    }
                    break;
                }
                readRequested = false;
                ByteBuf buf = channel.alloc().buffer(b.length).writeBytes(b);
                channel.pipeline().fireChannelRead(buf);
                channel.pipeline().fireChannelReadComplete();
            }
        } finally {
            delivering = false;
        }
        pump();
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        // not passed on: the embedded channel has nothing to read; the next delivery is the read
        readRequested = true;
        if (!delivering && (!unread.isEmpty() || finPending && !finDelivered)) loop.execute(this::deliver);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        try {
            if (msg instanceof ByteBuf b) {
                byte[] a = new byte[b.readableBytes()];
                b.getBytes(b.readerIndex(), a);
                received(a);
            } else if (msg instanceof FileRegion r) {
                received(transfer(r));
            } else {
                promise.tryFailure(new UnsupportedOperationException("an in-memory connection carries bytes, not "
                        + msg.getClass().getName()));
                return;
            }
            promise.trySuccess();
        } catch (IOException e) {
            promise.tryFailure(e);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        // every write was taken whole already
    }

    @Override
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        serverClosed();
        ctx.close(promise);
        loop.execute(this::pump); // the inactive event Netty queued on the embedded loop
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        serverClosed();
        unread.clear();
        ctx.fireChannelInactive();
    }

    private static byte[] transfer(FileRegion r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        WritableByteChannel target = Channels.newChannel(out);
        while (r.transferred() < r.count()) {
            if (r.transferTo(target, r.transferred()) <= 0) break;
        }
        return out.toByteArray();
    }

    private void received(byte[] bytes) {
        if (bytes.length == 0) return;
        lock.lock();
        try {
            received.add(bytes);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void serverClosed() {
        open = false;
        lock.lock();
        try {
            serverClosed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** @return false if the loop has stopped (the host is closed) */
    private boolean onLoop(Runnable task) {
        if (loop.isShuttingDown()) return false;
        try {
            loop.execute(task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** Waits (bounded) for a task on the loop, for the host's stop. */
    static void await(java.util.concurrent.Future<?> f, Duration max) {
        try {
            f.get(max.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // the stop goes on: the loop is shut down next whatever this task did
        }
    }
}
