package dev.tidemill.internal.http1;

import java.util.concurrent.atomic.LongAdder;

/**
 * How the file bodies of one server's connections went out, for {@code Server.diagnostics()}:
 * handed to the kernel whole ({@code files.zero_copy}) or read and written piece by piece
 * ({@code files.read}). Shared by every connection; written on their event loops.
 */
final class FileSends {
    final LongAdder zeroCopy = new LongAdder();
    final LongAdder read = new LongAdder();
}
