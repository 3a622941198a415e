package dev.tidemill.tests.noreflection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.Connection;
import dev.tidemill.testing.MultipartBody;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestRequest;
import dev.tidemill.testing.TestResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * No reflection of ours while serving requests, seen at run time: an app with a generated
 * controller (path and query parameters, a validated JSON body, a multipart form bound to a record
 * with an upload) serves a bounded load over HTTP/1.1 and h2c on 127.0.0.1 while a JFR recording,
 * started after a warm-up so that start-time work and each type's first binding are not in it,
 * samples every thread's stack ({@code jdk.ExecutionSample}) and traces every call of the
 * reflective entry points ({@code jdk.MethodTrace}, JDK 25).
 *
 * <p>The rule, for a sampled frame and for a traced call alike: a reflective frame
 * ({@code java.lang.reflect.*}, {@code jdk.internal.reflect.*}, {@code sun.reflect.*}, a method
 * handle invocation or lookup in {@code java.lang.invoke.*}, one of {@code Class}'s member lookups)
 * is "ours" when the nearest frame below it that is not the JDK's is a {@code dev.tidemill} class
 * (Tidemill, or the controller and its generated routes), and none may be ours. Reflection under
 * Jackson's or Hibernate Validator's frames is theirs (binding stays Jackson's) and is allowed; so is
 * the JDK's own use below a call of ours that is not reflective. The VarHandles some hot classes
 * update fields with and the invokedynamic linkage of lambdas and string concatenation are
 * {@code java.lang.invoke} frames but no reflection of ours: they are told apart by class (see
 * {@link #reflective}), and {@code NoReflectionArchTest} checks in the bytecode that no method
 * handle is used.
 */
@Timeout(180)
class NoReflectionUnderLoadTest {
    static final int CLIENTS = 3;
    static final int WARMUP_ROUNDS = 300;
    static final int ROUNDS = 800;
    static final int H2C_ROUNDS = 100;
    /** Far below what a run records (thousands): only there so the test cannot pass on an empty recording. */
    static final int MIN_SAMPLES_OF_OURS = 50;

    /** Traced on every call: the reflective entry points, with their stacks. */
    static final String TRACED = String.join(";",
            "java.lang.reflect.Method::invoke", "java.lang.reflect.Constructor::newInstance",
            "java.lang.reflect.Field::get", "java.lang.reflect.Field::set", "java.lang.reflect.Proxy::newProxyInstance",
            "java.lang.Class::getMethod", "java.lang.Class::getMethods", "java.lang.Class::getDeclaredMethod",
            "java.lang.Class::getDeclaredMethods", "java.lang.Class::getRecordComponents", "java.lang.Class::getField",
            "java.lang.Class::getFields", "java.lang.Class::getDeclaredField", "java.lang.Class::getDeclaredFields",
            "java.lang.Class::getConstructor", "java.lang.Class::getDeclaredConstructor",
            "java.lang.Class::getDeclaredConstructors", "java.lang.Class::getConstructors",
            "java.lang.invoke.MethodHandles$Lookup::findVirtual", "java.lang.invoke.MethodHandles$Lookup::findStatic",
            "java.lang.invoke.MethodHandles$Lookup::findConstructor", "java.lang.invoke.MethodHandles$Lookup::findSpecial",
            "java.lang.invoke.MethodHandles$Lookup::unreflect", "java.lang.invoke.MethodHandle::invokeWithArguments");

    static final java.util.Set<String> CLASS_LOOKUPS = java.util.Set.of("getMethod", "getMethods", "getDeclaredMethod",
            "getDeclaredMethods", "getRecordComponents", "getField", "getFields", "getDeclaredField", "getDeclaredFields",
            "getConstructor", "getConstructors", "getDeclaredConstructor", "getDeclaredConstructors", "newInstance");

    @TempDir
    Path dir;

    @Test
    void servesWithoutReflectionOfOurs() throws Exception {
        Tidemill app = Tidemill.create(TestClient.config().workerLoops(2).ioThreads(1).build());
        // The generated routes class, called as the index would call it: app.controllers(...) would
        // also insist that every controller compiled into this module is given, and the suite's
        // other controllers are not this test's.
        NoReflectionControllerRoutes.register(new NoReflectionController(), app);
        Path file = dir.resolve("load.jfr");
        try (TestClient client = TestClient.start(app).timeout(Duration.ofSeconds(20));
                TestClient h2c = TestClient.connectTo("127.0.0.1", client.port())
                        .timeout(Duration.ofSeconds(20)).protocol(TestClient.Protocol.H2C)) {
            drive(client, h2c, WARMUP_ROUNDS, H2C_ROUNDS / 2);
            try (Recording r = new Recording()) {
                r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1)).withStackTrace();
                r.enable("jdk.MethodTrace").with("filter", TRACED).withStackTrace();
                r.start();
                // a canary: one traced call from this class, so a tracer that traces nothing cannot pass
                int canary = NoReflectionUnderLoadTest.class.getDeclaredMethods().length;
                assertThat(canary).isPositive();
                drive(client, h2c, ROUNDS, H2C_ROUNDS);
                r.stop();
                r.dump(file);
            }
        }

        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        // each distinct reflective frame and its caller of ours, with the first stack it was seen in
        Map<String, String> ours = new java.util.TreeMap<>();
        int samplesOfOurs = 0;
        int canaries = 0;
        int samples = 0;
        int traced = 0;
        Map<String, Integer> tracedBy = new java.util.TreeMap<>();
        for (RecordedEvent e : events) {
            RecordedStackTrace st = e.getStackTrace();
            if (st == null) continue;
            List<RecordedFrame> frames = st.getFrames();
            switch (e.getEventType().getName()) {
                case "jdk.ExecutionSample" -> {
                    samples++;
                    if (frames.stream().anyMatch(f -> isOurs(className(f)))) samplesOfOurs++;
                    for (int i = 0; i < frames.size(); i++) {
                        if (reflective(frames.get(i)) && isOurs(caller(frames, i))) {
                            ours.putIfAbsent("sampled " + describe(frames.get(i)) + " called by " + caller(frames, i), render(frames));
                            break;
                        }
                    }
                }
                case "jdk.MethodTrace" -> {
                    traced++;
                    String caller = caller(frames, -1);
                    RecordedMethod m = e.getValue("method");
                    tracedBy.merge(m.getType().getName() + "." + m.getName() + " <- " + caller, 1, Integer::sum);
                    if (caller.equals(NoReflectionUnderLoadTest.class.getName())) {
                        canaries++;
                    } else if (isOurs(caller)) {
                        ours.putIfAbsent("traced " + m.getType().getName() + "." + m.getName() + " called by " + caller, render(frames));
                    }
                }
                default -> { }
            }
        }
        System.out.printf("NoReflectionUnderLoadTest: %d execution samples, %d with a dev.tidemill frame; %d reflective calls traced%n",
                samples, samplesOfOurs, traced);
        // whose they are (the nearest caller that is not the JDK's): Jackson's and Hibernate Validator's, by design
        tracedBy.forEach((call, n) -> System.out.printf("  %6d %s%n", n, call));
        assertThat(canaries).as("the canary's traced call (the tracer works)").isPositive();
        assertThat(samplesOfOurs).as("execution samples with a dev.tidemill frame").isGreaterThanOrEqualTo(MIN_SAMPLES_OF_OURS);
        assertThat(ours).as("reflective frames called by dev.tidemill code").isEmpty();
    }

    /** Each client thread: ROUNDS rounds on one keep-alive connection; one more thread over h2c. */
    static void drive(TestClient client, TestClient h2c, int rounds, int h2cRounds) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS + 1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < CLIENTS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    try (Connection c = client.connect()) {
                        for (int i = 0; i < rounds; i++) round(c::send, thread * rounds + i);
                    }
                    return null;
                }));
            }
            done.add(pool.submit(() -> {
                for (int i = 0; i < h2cRounds; i++) round(h2c::send, i);
                return null;
            }));
            for (Future<?> f : done) f.get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One of each route's requests: parameters, a valid and (every fourth round) an invalid JSON body, a multipart form. */
    static void round(java.util.function.Function<TestRequest, TestResponse> send, int i) {
        TestResponse got = send.apply(TestRequest.get("/nr/items/" + i + "?verbose=true&tag=t" + (i % 7)));
        assertThat(got.status()).as(got.text()).isEqualTo(200);
        assertThat(got.text()).contains("\"id\":" + i);

        got = send.apply(TestRequest.of("POST", "/nr/items").json(Map.of("name", "n" + i, "quantity", i % 1000)));
        assertThat(got.status()).as(got.text()).isEqualTo(201);

        if (i % 4 == 0) {
            got = send.apply(TestRequest.of("POST", "/nr/items").json(Map.of("name", " ", "quantity", 5000)));
            assertThat(got.status()).as(got.text()).isEqualTo(422);
        }

        byte[] file = ("file " + i).getBytes(StandardCharsets.UTF_8);
        got = send.apply(TestRequest.of("POST", "/nr/attachments")
                .multipart(MultipartBody.create().field("title", "t" + i).file("file", "f" + i + ".txt", "text/plain", file)));
        assertThat(got.status()).as(got.text()).isEqualTo(200);
        assertThat(got.text()).contains("\"size\":" + file.length);
    }

    /** Ours: Tidemill's classes and the controller's, but not the test client's nor this test's (the canary). */
    static boolean isOurs(String className) {
        return className.startsWith("dev.tidemill.") && !className.startsWith("dev.tidemill.testing.")
                && !className.startsWith(NoReflectionUnderLoadTest.class.getName());
    }

    static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("com.sun.");
    }

    /**
     * Reflection, and a method handle's explicit use: a frame of {@code java.lang.reflect},
     * {@code jdk.internal.reflect} or {@code sun.reflect}; a {@code Class} member lookup; in
     * {@code java.lang.invoke}, a lookup ({@code find*}, {@code unreflect*}), the linking of an
     * explicit {@code invokeExact}/{@code invoke} ({@code MethodHandleNatives.linkMethod}) and the
     * invokers it runs through ({@code invokeExact_MT}, {@code invoke_MT}), or
     * {@code invokeWithArguments}. Other {@code java.lang.invoke} frames are how the JVM runs plain
     * code, and they are under our frames by the thousand: invokedynamic call sites of lambdas and
     * string concatenation ({@code linkToTargetMethod}, {@code linkToCallSite}, then
     * {@code DirectMethodHandle$Holder.newInvokeSpecial}/{@code invokeStatic}) and VarHandle field
     * access ({@code VarHandleGuards}, {@code VarHandle*$FieldInstanceReadWrite}).
     */
    static boolean reflective(RecordedFrame f) {
        String c = className(f);
        String m = f.getMethod().getName();
        if (c.startsWith("java.lang.reflect.") || c.startsWith("jdk.internal.reflect.") || c.startsWith("sun.reflect.")) return true;
        if (c.equals("java.lang.Class")) return CLASS_LOOKUPS.contains(m);
        if (c.startsWith("java.lang.invoke.")) {
            return m.equals("invokeExact_MT") || m.equals("invoke_MT") || m.equals("invokeWithArguments")
                    || c.equals("java.lang.invoke.MethodHandleNatives") && m.equals("linkMethod")
                    || c.equals("java.lang.invoke.MethodHandles$Lookup") && (m.startsWith("find") || m.startsWith("unreflect"))
                    || c.equals("java.lang.invoke.MethodHandleProxies");
        }
        return false;
    }

    /** @return the class of the nearest frame below {@code i} (toward the thread's start) that is not the JDK's, or "" */
    static String caller(List<RecordedFrame> frames, int i) {
        for (int j = i + 1; j < frames.size(); j++) {
            String c = className(frames.get(j));
            if (!isJdk(c)) return c;
        }
        return "";
    }

    static String className(RecordedFrame f) {
        return f.getMethod().getType().getName();
    }

    static String describe(RecordedFrame f) {
        return className(f) + "." + f.getMethod().getName();
    }

    static String render(List<RecordedFrame> frames) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(frames.size(), 25); i++) b.append("    at ").append(describe(frames.get(i))).append('\n');
        return b.toString();
    }
}
