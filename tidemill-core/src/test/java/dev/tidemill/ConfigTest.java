package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        Config c = Config.defaults();
        assertThat(c.host()).isEqualTo("127.0.0.1");
        assertThat(c.port()).isEqualTo(8080);
        assertThat(c.executionMode()).isEqualTo(ExecutionMode.LOOP);
        assertThat(c.transport()).isEqualTo(Transport.AUTO);
        assertThat(c.assignment()).isEqualTo(Assignment.LEAST_LOADED);
        assertThat(c.limits()).isEqualTo(Limits.DEFAULTS);
        assertThat(c.timeouts()).isEqualTo(Timeouts.DEFAULTS);
        assertThat(c.limits().concurrencyPerLoop()).isEqualTo(1024);
        assertThat(c.limits().maxConnections()).isEqualTo(10_000);
        assertThat(c.limits().maxRequestLineBytes()).isEqualTo(8192);
        assertThat(c.limits().maxHeaderBytes()).isEqualTo(16384);
        assertThat(c.limits().maxHeaderCount()).isEqualTo(100);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(16L * 1024 * 1024);
        assertThat(c.limits().maxPipelined()).isEqualTo(16);
        assertThat(c.limits().maxDrainBytes()).isEqualTo(256 * 1024);
        // Moved here from the classes that used them as constants, with the values they had there.
        assertThat(c.limits().maxQueryPairs()).isEqualTo(1000); // QueryString.MAX_PAIRS
        assertThat(c.limits().maxLeadingEmptyLines()).isEqualTo(8); // HeadValidator.MAX_EMPTY_LINES
        assertThat(c.limits().maxContentCodings()).isEqualTo(2); // ContentDecoding.MAX_CODINGS
        assertThat(c.limits().maxJsonNestingDepth()).isEqualTo(500); // JacksonCodec
        assertThat(c.limits().maxJsonNumberLength()).isEqualTo(1000); // JacksonCodec
        assertThat(c.limits().maxJsonStringLength()).isEqualTo(16 * 1024 * 1024); // JacksonCodec
        assertThat(c.limits().acceptBacklog()).isEqualTo(4096); // Linux's default somaxconn
        assertThat(c.limits().writeBufferLowWaterMark()).isEqualTo(32 * 1024); // HttpServer
        assertThat(c.limits().writeBufferHighWaterMark()).isEqualTo(64 * 1024); // HttpServer
        assertThat(c.limits().decoderChunkBytes()).isEqualTo(64 * 1024); // PipelineInitializer
        assertThat(c.timeouts().request()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().headerRead()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.timeouts().idle()).isEqualTo(Duration.ofSeconds(15));
        assertThat(c.timeouts().bodyStall()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().writeStall()).isEqualTo(Duration.ofSeconds(30));
        assertThat(c.timeouts().drain()).isEqualTo(Duration.ofMillis(250));
        assertThat(c.timeouts().linger()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.timeouts().shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void environmentOverridesEveryKindOfSetting() {
        Config c = Config.fromEnvironment(Map.of(
                "TIDEMILL_HOST", "0.0.0.0",
                "TIDEMILL_PORT", "9090",
                "TIDEMILL_LOOPS", "3",
                "TIDEMILL_MODE", "virtual",
                "TIDEMILL_TRANSPORT", "io_uring",
                "TIDEMILL_MAX_BODY", "1MiB",
                "TIDEMILL_REQUEST_TIMEOUT", "500ms",
                "TIDEMILL_DEBUG", "yes",
                "TIDEMILL_ASSIGNMENT", "round-robin",
                "PATH", "/usr/bin"));
        assertThat(c.host()).isEqualTo("0.0.0.0");
        assertThat(c.port()).isEqualTo(9090);
        assertThat(c.workerLoops()).isEqualTo(3);
        assertThat(c.executionMode()).isEqualTo(ExecutionMode.VIRTUAL);
        assertThat(c.transport()).isEqualTo(Transport.IO_URING);
        assertThat(c.limits().maxBodyBytes()).isEqualTo(1024 * 1024);
        assertThat(c.timeouts().request()).isEqualTo(Duration.ofMillis(500));
        assertThat(c.debug()).isTrue();
        assertThat(c.assignment()).isEqualTo(Assignment.ROUND_ROBIN);
    }

    @Test
    void theBufferRingTransportIsNamedAsTheOthersAre() {
        assertThat(Config.fromEnvironment(Map.of("TIDEMILL_TRANSPORT", "io_uring_buffer_ring")).transport())
                .isEqualTo(Transport.IO_URING_BUFFER_RING);
        assertThat(Config.fromEnvironment(Map.of("TIDEMILL_TRANSPORT", "IO_URING-BUFFER-RING")).transport())
                .isEqualTo(Transport.IO_URING_BUFFER_RING);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_TRANSPORT", "rings")))
                .hasMessageContaining("TIDEMILL_TRANSPORT")
                .hasMessageContaining("one of auto, epoll, io_uring, io_uring_buffer_ring, nio");
    }

    @Test
    void aBadValueNamesTheVariableAndWhatItExpectsButNeverEchoesTheValue() {
        String secret = "hunter2-secret-token";
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_PORT", secret)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TIDEMILL_PORT")
                .hasMessageContaining("0-65535")
                .hasMessageNotContaining(secret);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_MAX_BODY", secret)))
                .hasMessageContaining("TIDEMILL_MAX_BODY").hasMessageNotContaining(secret);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_MODE", secret)))
                .hasMessageContaining("io, loop, virtual").hasMessageNotContaining(secret);
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_PORT", "65536")))
                .hasMessageContaining("TIDEMILL_PORT");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_REQUEST_TIMEOUT", "0s")))
                .hasMessageContaining("TIDEMILL_REQUEST_TIMEOUT");
        // read by tidemill-redis, checked here: a URL with a password is never echoed either
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_REDIS_URL", "http://app:" + secret + "@h:6379")))
                .hasMessageContaining("TIDEMILL_REDIS_URL").hasMessageContaining("redis://").hasMessageNotContaining(secret);
        assertThat(Config.fromEnvironment(Map.of("TIDEMILL_REDIS_URL", "rediss://app:" + secret + "@redis.example:6380/1"))).isNotNull();
    }

    @Test
    void anUnknownTidemillVariableIsRefusedSoTyposDoNotFallBackToDefaults() {
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_PROT", "80")))
                .hasMessageContaining("TIDEMILL_PROT is not a Tidemill setting");
    }

    @Test
    void builderRejectsOutOfRangeValuesNamingTheField() {
        assertThatThrownBy(() -> Config.builder().port(-1).build()).hasMessageContaining("port");
        assertThatThrownBy(() -> Config.builder().maxPipelined(0).build()).hasMessageContaining("maxPipelined");
        assertThatThrownBy(() -> Config.builder().serverHeader("a\r\nb").build()).hasMessageContaining("serverHeader");
    }

    @Test
    void theRecordBuildersStartFromTheDefaultsAndToBuilderRoundTrips() {
        assertThat(Limits.builder().build()).isEqualTo(Limits.DEFAULTS);
        assertThat(Timeouts.builder().build()).isEqualTo(Timeouts.DEFAULTS);
        Limits l = Limits.builder().maxPipelined(3).acceptBacklog(77).build();
        assertThat(l.toBuilder().build()).isEqualTo(l);
        assertThat(l.withMaxBodyBytes(5)).isEqualTo(l.toBuilder().maxBodyBytes(5).build());
        Timeouts t = Timeouts.builder().drain(Duration.ofSeconds(2)).build();
        assertThat(t.toBuilder().build()).isEqualTo(t);
        Config c = Config.builder().limits(l).timeouts(t).port(1).build();
        assertThat(c.limits()).isEqualTo(l);
        assertThat(c.timeouts()).isEqualTo(t);
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }

    /** Each limit and timeout set through Config.Builder's own setter lands in the record. */
    @Test
    void configBuilderForwardsEveryLimitAndTimeout() throws Exception {
        Limits l = Limits.DEFAULTS;
        Timeouts t = Timeouts.DEFAULTS;
        Config.Builder b = Config.builder();
        Map<String, Object> set = new LinkedHashMap<>();
        for (RecordComponent rc : Limits.class.getRecordComponents()) {
            long v = ((Number) rc.getAccessor().invoke(l)).longValue();
            // in range: every default is above its minimum, but maxFrameBytes's is RFC 9113's minimum (16 KiB)
            long other = rc.getName().equals("maxFrameBytes") ? v + 1 : v - 1;
            Object value = rc.getType() == int.class ? (Object) (int) other : (Object) other;
            Config.Builder.class.getMethod(rc.getName(), rc.getType()).invoke(b, value);
            set.put(rc.getName(), value);
        }
        for (RecordComponent rc : Timeouts.class.getRecordComponents()) {
            Duration value = ((Duration) rc.getAccessor().invoke(t)).plusMillis(1);
            String setter = Set.of("shutdownGrace", "shutdownIdle", "ssePing").contains(rc.getName()) ? rc.getName() : rc.getName() + "Timeout";
            Config.Builder.class.getMethod(setter, Duration.class).invoke(b, value);
            set.put(rc.getName(), value);
        }
        Config c = b.build();
        for (RecordComponent rc : Limits.class.getRecordComponents()) {
            assertThat(rc.getAccessor().invoke(c.limits())).as(rc.getName()).isEqualTo(set.get(rc.getName()));
        }
        for (RecordComponent rc : Timeouts.class.getRecordComponents()) {
            assertThat(rc.getAccessor().invoke(c.timeouts())).as(rc.getName()).isEqualTo(set.get(rc.getName()));
        }
    }

    /** Every range of Config, Limits and Timeouts (the reader uses the same objects). */
    static Stream<Range> ranges() {
        List<Range> out = new ArrayList<>();
        for (Class<?> type : List.of(Config.class, Limits.class, Timeouts.class)) {
            for (Field f : type.getDeclaredFields()) {
                if (f.getType() != Range.class || !Modifier.isStatic(f.getModifiers())) continue;
                try {
                    out.add((Range) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        assertThat(out).hasSize(3 + Limits.class.getRecordComponents().length + Timeouts.class.getRecordComponents().length);
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ranges")
    void theBuilderAcceptsBothBoundsAndRefusesOnePastEachNamingTheField(Range r) {
        for (long v : new long[] {r.min(), r.max()}) {
            assertThatCode(() -> build(r, v)).as("%s = %s", r.field(), v).doesNotThrowAnyException();
        }
        for (long v : new long[] {r.min() - 1, r.max() + 1}) {
            // Exactly the field and its range: no value in the message.
            assertThatThrownBy(() -> build(r, v)).as("%s = %s", r.field(), v)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(r.field() + " must be " + r.describe());
        }
    }

    /** The ranges of the settings that have an environment variable (the others are set in code only; the README says which and why). */
    static Stream<Range> environmentRanges() {
        List<Range> out = ranges().filter(r -> EnvironmentConfig.variableByField().containsKey(r.field())).toList();
        assertThat(out).as("ranges with an environment variable").isNotEmpty();
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("environmentRanges")
    void theEnvironmentAcceptsBothBoundsAndRefusesOnePastEachNamingTheVariableAndTheSameRange(Range r) {
        String name = EnvironmentConfig.variableByField().get(r.field());
        String expects = EnvironmentConfig.variables().get(name);
        assertThat(expects).as("%s prints the record's range", name).startsWith(r.describe());
        // Bounds written the way the message prints them (8KiB, 24h), so the message can be copied.
        for (String v : new String[] {written(r, r.min(), true), written(r, r.max(), true)}) {
            Config c = Config.fromEnvironment(env(r, name, v));
            assertThat(c).as("%s=%s", name, v).isNotNull();
        }
        for (long past : new long[] {r.min() - unit(r), r.max() + unit(r)}) {
            String v = written(r, past, false);
            assertThatThrownBy(() -> Config.fromEnvironment(env(r, name, v))).as("%s=%s", name, v)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage(name + " must be " + expects);
        }
    }

    @Test
    void theWriteBufferMarksAreCheckedAgainstEachOtherWhateverTheOrderOfTheVariables() {
        Map<String, String> highFirst = new LinkedHashMap<>();
        highFirst.put("TIDEMILL_WRITE_HIGH_WATER_MARK", "16KiB");
        highFirst.put("TIDEMILL_WRITE_LOW_WATER_MARK", "8KiB");
        Map<String, String> lowFirst = new LinkedHashMap<>();
        lowFirst.put("TIDEMILL_WRITE_LOW_WATER_MARK", "8KiB");
        lowFirst.put("TIDEMILL_WRITE_HIGH_WATER_MARK", "16KiB");
        for (Map<String, String> env : List.of(highFirst, lowFirst)) {
            Limits l = Config.fromEnvironment(env).limits();
            assertThat(l.writeBufferLowWaterMark()).isEqualTo(8 * 1024);
            assertThat(l.writeBufferHighWaterMark()).isEqualTo(16 * 1024);
        }
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_WRITE_HIGH_WATER_MARK", "16KiB")))
                .hasMessage("TIDEMILL_* settings are inconsistent: writeBufferLowWaterMark must be <= writeBufferHighWaterMark");
        assertThatThrownBy(() -> Config.builder().writeBufferLowWaterMark(2).writeBufferHighWaterMark(1).build())
                .hasMessage("writeBufferLowWaterMark must be <= writeBufferHighWaterMark");
        assertThat(Config.builder().writeBufferLowWaterMark(1).writeBufferHighWaterMark(1).build().limits()
                .writeBufferHighWaterMark()).isEqualTo(1);
    }

    @Test
    void theNewVariablesApply() {
        Config c = Config.fromEnvironment(Map.of(
                "TIDEMILL_MAX_DRAIN_BYTES", "1MiB",
                "TIDEMILL_DRAIN_TIMEOUT", "2s",
                "TIDEMILL_ACCEPT_BACKLOG", "4096",
                "TIDEMILL_WRITE_LOW_WATER_MARK", "128KiB",
                "TIDEMILL_WRITE_HIGH_WATER_MARK", "256KiB"));
        assertThat(c.limits().maxDrainBytes()).isEqualTo(1024 * 1024);
        assertThat(c.timeouts().drain()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.limits().acceptBacklog()).isEqualTo(4096);
        assertThat(c.limits().writeBufferLowWaterMark()).isEqualTo(128 * 1024);
        assertThat(c.limits().writeBufferHighWaterMark()).isEqualTo(256 * 1024);
    }

    @Test
    void maxPipelinedHasOneRangeForTheBuilderAndTheEnvironment() {
        // The bug this pins: the environment capped it at 65,536 while the builder took anything.
        assertThatThrownBy(() -> Config.builder().maxPipelined(65_537).build()).hasMessage("maxPipelined must be an integer 1-65536");
        assertThatThrownBy(() -> Config.fromEnvironment(Map.of("TIDEMILL_MAX_PIPELINED", "65537")))
                .hasMessage("TIDEMILL_MAX_PIPELINED must be an integer 1-65536");
    }

    /** Builds a config with {@code v} in {@code r}'s field, through the public builder that owns it. */
    private static void build(Range r, long v) throws Throwable {
        Config.Builder config = Config.builder();
        Limits.Builder limits = Limits.builder();
        Timeouts.Builder timeouts = Timeouts.builder();
        // The watermarks are also bound to each other: keep the partner out of the way.
        if (r.field().equals("writeBufferLowWaterMark")) limits.writeBufferHighWaterMark((int) Limits.WRITE_BUFFER_HIGH_WATER_MARK.max());
        if (r.field().equals("writeBufferHighWaterMark")) limits.writeBufferLowWaterMark((int) Limits.WRITE_BUFFER_LOW_WATER_MARK.min());
        Object target = isComponent(Config.class, r.field()) ? config : isComponent(Limits.class, r.field()) ? limits : timeouts;
        Method m = setter(target.getClass(), r.field());
        Class<?> p = m.getParameterTypes()[0];
        Object arg = p == int.class ? (Object) (int) v : p == long.class ? (Object) v : Duration.ofNanos(v);
        try {
            m.invoke(target, arg);
            config.limits(limits.build()).timeouts(timeouts.build()).build();
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static boolean isComponent(Class<?> record, String name) {
        for (RecordComponent rc : record.getRecordComponents()) if (rc.getName().equals(name)) return true;
        return false;
    }

    private static Method setter(Class<?> type, String name) {
        for (Method m : type.getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == 1) return m;
        }
        throw new AssertionError(type.getSimpleName() + " has no setter " + name);
    }

    /** The smallest step the variable's syntax can write: 1 ms for durations, 1 for the rest. */
    private static long unit(Range r) {
        return r.kind() == Range.Kind.DURATION ? 1_000_000L : 1;
    }

    private static String written(Range r, long v, boolean asPrinted) {
        return switch (r.kind()) {
            case COUNT -> Long.toString(v);
            case BYTES -> asPrinted ? Range.size(v) : Long.toString(v);
            case DURATION -> asPrinted ? Range.duration(v) : (v / 1_000_000L) + "ms";
        };
    }

    private static Map<String, String> env(Range r, String name, String value) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put(name, value);
        if (r.field().equals("writeBufferLowWaterMark")) env.put("TIDEMILL_WRITE_HIGH_WATER_MARK", Range.size(Limits.WRITE_BUFFER_HIGH_WATER_MARK.max()));
        if (r.field().equals("writeBufferHighWaterMark")) env.put("TIDEMILL_WRITE_LOW_WATER_MARK", Range.size(Limits.WRITE_BUFFER_LOW_WATER_MARK.min()));
        return env;
    }
}
