package dev.tidemill.internal.multipart;

import dev.tidemill.Limits;
import dev.tidemill.Multipart;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The non-blocking multipart reader ({@code Request.multipart(PartHandler)}): takes the body a
 * piece at a time from a {@link PieceSource}, feeds it to the {@link MultipartParser} and hands
 * each part's content to the {@link Multipart.Sink} the handler chose, on the thread the piece
 * arrived on. No thread waits: a piece that is not there yet continues the pump from the source's
 * callback, on the thread that brings it.
 *
 * <p>The parser reads the source's buffers where they lie (a socket's direct memory included), and
 * a sink gets read-only views of them: no copy on the way. File sinks (written by {@link PartFile}) are the
 * one place that waits: their pieces are views of the source's buffer, written on a virtual thread
 * before the rest of the piece is parsed, which is the form's back-pressure (the piece stays held
 * until then, and the socket stops at the body's high-water mark behind it).
 */
public final class MultipartPump implements PartListener, BiConsumer<ByteBuf, Throwable> {
    private final MultipartParser parser;
    private final Multipart.PartHandler handler;
    private final PieceSource source;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    /** Files with pieces to write or a close to do before the next piece is parsed. */
    private final List<PartFile> writing = new ArrayList<>(2);
    /** Every file sink a part went to, deleted unless complete when the form fails. */
    private List<PartFile> files;
    private ByteBuf piece;
    /** The piece as NIO buffers (one, unless it is a composite), and the next one to feed. */
    private ByteBuffer[] chunks;
    private final ByteBuffer[] one = new ByteBuffer[1];
    private int nextChunk;
    /** The buffer being fed, and a read-only view of it for sinks, repositioned per slice. */
    private ByteBuffer fed;
    private ByteBuffer view;
    private Multipart.Sink sink;
    /** The part's file, when its sink is a {@link Multipart.FileSink}. */
    private PartFile file;

    private MultipartPump(String contentType, Limits limits, Multipart.PartHandler handler, PieceSource source) {
        this.parser = MultipartParser.forContentType(contentType, limits, this);
        this.handler = handler;
        this.source = source;
    }

    /**
     * @param contentType the request's {@code Content-Type}, already known to be {@code multipart/form-data}
     * @param limits the multipart limits
     * @param handler picks each part's sink
     * @param source the body
     * @return completes after the final boundary, every sink ended and every file closed
     * @throws dev.tidemill.ProblemException 400 for a missing or invalid boundary
     */
    public static CompletionStage<Void> start(String contentType, Limits limits, Multipart.PartHandler handler, PieceSource source) {
        MultipartPump pump = new MultipartPump(contentType, limits, java.util.Objects.requireNonNull(handler, "handler"), source);
        pump.pull();
        return pump.done;
    }

    /** Takes pieces while they are already there; continues from the source's callback ({@link #accept}) when one is not. */
    private void pull() {
        while (true) {
            ByteBuf b;
            try {
                b = source.next(this);
            } catch (RuntimeException e) {
                fail(e);
                return;
            }
            if (b == null || !take(b == PieceSource.END ? null : b)) return;
        }
    }

    /** A piece arrived (null: the end) or the body failed; the source never calls this before its next() returned. */
    @Override
    public void accept(ByteBuf b, Throwable error) {
        if (error != null) {
            fail(error instanceof CompletionException c && c.getCause() != null ? c.getCause() : error);
        } else if (take(b)) {
            pull();
        }
    }

    /** @return whether to take the next piece now; false at the end, on failure, or while files are written */
    private boolean take(ByteBuf b) {
        if (b == null) {
            finish();
            return false;
        }
        piece = b;
        if (b.nioBufferCount() == 1) {
            one[0] = b.nioBuffer();
            chunks = one;
        } else {
            chunks = b.nioBuffers();
        }
        nextChunk = 0;
        return feedPiece();
    }

    /** Feeds the rest of the piece; stops to write files when a feed gave them pieces. */
    private boolean feedPiece() {
        try {
            while (nextChunk < chunks.length) {
                fed = chunks[nextChunk++];
                view = null;
                parser.feed(fed);
                if (!writing.isEmpty()) {
                    writeFiles();
                    return false;
                }
            }
        } catch (Throwable t) {
            fail(t);
            return false;
        }
        release();
        return true;
    }

    /** Writes the files' pieces on a virtual thread, then goes on parsing there. */
    private void writeFiles() {
        Thread.ofVirtual().name("tidemill-multipart-file").start(() -> {
            try {
                for (PartFile f : writing) f.write();
                writing.clear();
            } catch (Throwable t) {
                fail(t);
                return;
            }
            if (feedPiece()) pull();
        });
    }

    private void finish() {
        try {
            parser.finish();
        } catch (Throwable t) {
            fail(t);
            return;
        }
        done.complete(null);
    }

    private void fail(Throwable t) {
        if (done.isDone()) return;
        release();
        source.abandon();
        if (files == null) {
            done.completeExceptionally(t);
            return;
        }
        // deleting files is disk I/O: not on the event loop
        Thread.ofVirtual().name("tidemill-multipart-cleanup").start(() -> {
            for (PartFile f : files) f.abandon();
            done.completeExceptionally(t);
        });
    }

    private void release() {
        fed = null;
        view = null;
        one[0] = null;
        if (piece != null) {
            piece.release();
            piece = null;
        }
    }

    // ---- the parser's events, on the thread that feeds it ----

    @Override
    public void partBegin(PartHead head) {
        Multipart.Sink s = handler.part(head);
        if (s instanceof Multipart.FileSink fs) {
            if (files == null) files = new ArrayList<>(2);
            for (PartFile f : files) {
                if (f.sink() == fs) {
                    throw Refusal.malformed("part " + Refusal.quoted(head.name()) + " went to a file that part "
                            + Refusal.quoted(f.part()) + " already filled");
                }
            }
            file = new PartFile(fs, head.name());
            files.add(file);
        }
        sink = s;
    }

    @Override
    public void partData(ByteBuffer data, int off, int len) {
        if (file != null) {
            // the piece's own bytes, held until written; the parser's delimiter bytes (a few) copied
            ByteBuffer own = data == fed ? data.slice(off, len) : ByteBuffer.allocate(len).put(0, data, off, len);
            file.add(own, own.asReadOnlyBuffer());
            if (!writing.contains(file)) writing.add(file);
        } else if (sink != null) {
            if (data == fed) {
                if (view == null) view = fed.asReadOnlyBuffer(); // one per buffer fed, only when a sink reads
                view.limit(off + len).position(off);
                sink.accept(view);
                view.clear();
            } else {
                sink.accept(data.slice(off, len).asReadOnlyBuffer());
            }
        }
    }

    @Override
    public void partEnd() {
        Multipart.Sink s = sink;
        PartFile f = file;
        sink = null;
        file = null;
        if (f != null) {
            f.end();
            if (f.hasWork() && !writing.contains(f)) writing.add(f);
        } else if (s != null) {
            s.end();
        }
    }
}
