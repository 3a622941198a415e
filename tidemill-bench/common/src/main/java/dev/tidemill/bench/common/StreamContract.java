package dev.tidemill.bench.common;

import java.util.concurrent.locks.LockSupport;

/**
 * What every target of the streams suite serves, so that one client measures them all alike:
 * {@value #FANOUT} (lossless SSE), {@value #LOSSY} (SSE that drops for a subscriber that cannot
 * keep up), {@code <stream>}{@value #PUBLISH}{@code ?events=E&rate=R} (POST: answers 202, then
 * publishes events 1..E, R per second, or as fast as the target's backpressure allows for R = 0),
 * {@code <stream>}{@value #SUBSCRIBERS} (GET: how many subscribers are attached now, as text) and
 * {@value #ECHO} (WebSocket echo, text and binary).
 */
public final class StreamContract {
    /** The lossless fan-out stream. */
    public static final String FANOUT = "/sse/fanout";
    /** The lossy stream of the slow-subscriber isolation scenario. */
    public static final String LOSSY = "/sse/lossy";
    /** Appended to a stream's path: start publishing. */
    public static final String PUBLISH = "/publish";
    /** Appended to a stream's path: the subscriber count. */
    public static final String SUBSCRIBERS = "/subscribers";
    /** The WebSocket echo endpoint. */
    public static final String ECHO = "/ws/echo";
    /**
     * The Datastar stream: lossless like {@link #FANOUT}, but each event is a Datastar 1.0
     * {@code datastar-patch-elements} event carrying an HTML fragment, {@link #datastarEvent}.
     */
    public static final String DATASTAR = "/sse/datastar";
    /** The Datastar 1.0 event type that patches elements into the page. */
    public static final String DATASTAR_PATCH_ELEMENTS = "datastar-patch-elements";
    /** What the fragment holds before the publisher's {@link #data} value. */
    public static final String FRAGMENT_PREFIX = "<div id=\"tick\">";
    /** What the fragment holds after it. */
    public static final String FRAGMENT_SUFFIX = "</div>";
    /** How many events a subscriber may have queued in a target that queues per subscriber (Tidemill's default capacity). */
    public static final int QUEUE = 1024;

    private StreamContract() {}

    /** Publishes one event. */
    @FunctionalInterface
    public interface Publish {
        /**
         * @param seq the event's sequence number, from 1
         * @param data its {@code data:} value, {@link #data(int)}
         * @throws InterruptedException if the publisher is interrupted while it waits for room
         */
        void event(int seq, String data) throws InterruptedException;
    }

    /**
     * @param seq a sequence number
     * @return {@code "<seq> <System.nanoTime()>"}: the client subtracts the time from its own
     *     {@code System.nanoTime()} at arrival (CLOCK_MONOTONIC on Linux, the same clock in every
     *     process of a host)
     */
    public static String data(int seq) {
        return seq + " " + System.nanoTime();
    }

    /**
     * @param data a {@link #data} value
     * @return the HTML fragment of one Datastar event: {@code <div id="tick"><seq> <nanos></div>}
     */
    public static String fragment(String data) {
        return FRAGMENT_PREFIX + data + FRAGMENT_SUFFIX;
    }

    /**
     * The exact bytes every target sends for one event on {@link #DATASTAR}: a Datastar 1.0
     * {@code patch-elements} event with the default mode (outer) and no selector, so the browser
     * morphs the element by its id, and a fragment of one line.
     *
     * @param data a {@link #data} value
     * @return {@code event: datastar-patch-elements\ndata: elements <div id="tick">SEQ NANOS</div>\n\n}
     */
    public static String datastarEvent(String data) {
        return "event: " + DATASTAR_PATCH_ELEMENTS + "\ndata: elements " + fragment(data) + "\n\n";
    }

    /**
     * Publishes {@code events} events on the calling thread (which may block: a virtual or
     * platform thread of the target's own), paced at {@code rate} per second from the first.
     *
     * @param events how many
     * @param rate per second; 0: unpaced
     * @param publish publishes one
     */
    public static void publish(int events, int rate, Publish publish) {
        long start = System.nanoTime();
        try {
            for (int seq = 1; seq <= events; seq++) {
                if (rate > 0) {
                    long wait = start + (seq - 1) * 1_000_000_000L / rate - System.nanoTime();
                    if (wait > 0) LockSupport.parkNanos(wait);
                }
                publish.event(seq, data(seq));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * @param query a raw query string ({@code events=100&rate=0}), may be null
     * @param name a parameter
     * @param fallback when absent
     * @return its value
     */
    public static int intParam(String query, String name, int fallback) {
        if (query == null) return fallback;
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0 && pair.substring(0, eq).equals(name)) return Integer.parseInt(pair.substring(eq + 1));
        }
        return fallback;
    }
}
