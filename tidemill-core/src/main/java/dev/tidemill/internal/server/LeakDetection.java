package dev.tidemill.internal.server;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer leak detection, off in a server unless asked for: at its default level (SIMPLE)
 * it tracks one buffer in 128 with a stack trace, and under h2load with 32 streams per connection
 * that was 16 % of the requests per second (h2c, IO mode, one core: 234k with it, 273k without;
 * {@code bench/prof-h2.sh}, one run after the other). Vert.x turns it off the same way. Whoever
 * sets {@code io.netty.leakDetection.level} (the test suites set {@code simple}; {@code paranoid}
 * for a leak hunt) or a level in code before the server starts keeps it.
 */
final class LeakDetection {
    private LeakDetection() {}

    /** @return what was decided, for the startup report */
    static String configure() {
        if (System.getProperty("io.netty.leakDetection.level") != null || System.getProperty("io.netty.leakDetectionLevel") != null) {
            return "buffer leak detection " + ResourceLeakDetector.getLevel() + " (io.netty.leakDetection.level)";
        }
        if (ResourceLeakDetector.getLevel() != ResourceLeakDetector.Level.SIMPLE) {
            return "buffer leak detection " + ResourceLeakDetector.getLevel() + " (set in code)";
        }
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        return "buffer leak detection off (-Dio.netty.leakDetection.level=simple turns it on)";
    }
}
