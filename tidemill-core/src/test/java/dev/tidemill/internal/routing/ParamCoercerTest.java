package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Problem.FieldError;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ParamCoercerTest {
    static final Param<Integer> ID = Param.path("id", ParamType.INT);
    static final Param<String> SLUG = Param.path("slug");
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(20);
    static final Param<Optional<LocalDate>> SINCE = Param.query("since", ParamType.LOCAL_DATE).optional();
    static final Param<Boolean> DRY = Param.query("dry", ParamType.BOOLEAN);
    static final Param<List<Integer>> TAG = Param.queryList("tag", ParamType.INT);

    private static final String[] NAMES = {"id", "slug"};

    private static ParamCoercer all() {
        return new ParamCoercer(List.of(ID, SLUG, LIMIT, SINCE, DRY, TAG), NAMES);
    }

    @Test
    void everyShapeWithValidValues() {
        ParamCoercer.Result r = all().coerce(new String[] {"7", "caf%C3%A9%2Fx"},
                Map.of("limit", List.of("5"), "since", List.of("2024-02-29"), "dry", List.of("yes", "no"),
                        "tag", List.of("1", "2", "3")), null);
        assertThat(r.ok()).isTrue();
        assertThat(r.errors()).isEmpty();
        assertThat(r.values()).containsExactly(7, "café/x", 5, Optional.of(LocalDate.of(2024, 2, 29)), true,
                List.of(1, 2, 3));
        assertThat(r.pathValues()).containsExactly("7", "café/x");
    }

    @Test
    void absentOptionalDefaultedAndListParameters() {
        ParamCoercer.Result r = all().coerce(new String[] {"7", "s"}, Map.of("dry", List.of("0")), null);
        assertThat(r.ok()).isTrue();
        assertThat(r.values()).containsExactly(7, "s", 20, Optional.empty(), false, List.of());
    }

    @Test
    void everyFailureIsReportedWithExactLocTypeMsgAndInput() {
        ParamCoercer.Result r = all().coerce(new String[] {"x%20y", "s"},
                Map.of("limit", List.of("many"), "since", List.of("2026-02-30"), "tag", List.of("1", "b", "3", "")), null);
        assertThat(r.ok()).isFalse();
        assertThat(r.errors()).containsExactly(
                new FieldError("int_parsing", List.of("path", "id"), "Input should be a valid integer", Optional.of("x y")),
                new FieldError("int_parsing", List.of("query", "limit"), "Input should be a valid integer",
                        Optional.of("many")),
                new FieldError("date_parsing", List.of("query", "since"),
                        "Input should be a valid date in the format YYYY-MM-DD", Optional.of("2026-02-30")),
                new FieldError("missing", List.of("query", "dry"), "Field required", Optional.empty()),
                new FieldError("int_parsing", List.of("query", "tag", "1"), "Input should be a valid integer",
                        Optional.of("b")),
                new FieldError("int_parsing", List.of("query", "tag", "3"), "Input should be a valid integer",
                        Optional.of("")));
        assertThat(r.pathValues()).containsExactly("x y", "s");
    }

    @Test
    void requiredQueryUsesTheFirstOfRepeatedValues() {
        ParamCoercer c = new ParamCoercer(List.of(DRY), new String[0]);
        assertThat(c.coerce(new String[0], Map.of("dry", List.of("on", "garbage")), null).values()).containsExactly(true);
        assertThat(c.coerce(new String[0], Map.of("dry", List.of("garbage", "on")), null).errors())
                .extracting(FieldError::input).containsExactly(Optional.of("garbage"));
    }

    @Test
    void presentButEmptyValueIsCoercedNotMissing() {
        ParamCoercer c = new ParamCoercer(List.of(Param.query("q"), Param.query("n", ParamType.INT).optional()),
                new String[0]);
        ParamCoercer.Result r = c.coerce(new String[0], Map.of("q", List.of(""), "n", List.of("")), null);
        assertThat(r.values()[0]).isEqualTo("");
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.loc()).containsExactly("query", "n");
            assertThat(e.type()).isEqualTo("int_parsing");
        });
    }

    @Test
    void enumErrorListsTheValues() {
        Param<Thread.State> state = Param.query("state", ParamType.enumOf(Thread.State.class));
        ParamCoercer.Result r = new ParamCoercer(List.of(state), new String[0])
                .coerce(new String[0], Map.of("state", List.of("sleeping")), null);
        assertThat(r.errors()).singleElement().satisfies(e -> {
            assertThat(e.type()).isEqualTo("enum");
            assertThat(e.msg()).isEqualTo("Input should be one of: NEW, RUNNABLE, BLOCKED, WAITING, TIMED_WAITING, TERMINATED");
        });
    }

    @Test
    void malformedPathEncodingPropagates() {
        assertThatThrownBy(() -> all().coerce(new String[] {"%zz", "s"}, Map.of(), null))
                .isInstanceOf(MalformedEncodingException.class)
                .hasMessage("invalid percent-encoding in path");
    }

    @Test
    void undeclaredPathParametersAreStillDecoded() {
        ParamCoercer c = new ParamCoercer(List.of(), new String[] {"rest"});
        ParamCoercer.Result r = c.coerce(new String[] {"a%20b/c"}, Map.of(), null);
        assertThat(r.values()).isEmpty();
        assertThat(r.pathValues()).containsExactly("a b/c");
        assertThat(r.errors()).isEmpty();
    }

    @Test
    void noParametersSharesOneResult() {
        ParamCoercer c = new ParamCoercer(List.of(), new String[0]);
        assertThat(c.coerce(new String[0], Map.of("x", List.of("1")), null)).isSameAs(c.coerce(new String[0], null, null));
        assertThat(c.coerce(new String[0], Map.of(), null).ok()).isTrue();
    }

    @Test
    void pathParameterMustBeInThePattern() {
        assertThatThrownBy(() -> new ParamCoercer(List.of(ID), new String[] {"key"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'id'")
                .hasMessageContaining("[key]");
    }

    @Test
    void sameParameterDeclaredTwiceIsRefused() {
        assertThatThrownBy(() -> new ParamCoercer(List.of(DRY, Param.query("dry")), new String[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("declared twice");
    }

    @Test
    void indexOfByIdentityThenByLocationAndName() {
        ParamCoercer c = all();
        assertThat(c.indexOf(LIMIT)).isEqualTo(2);
        assertThat(c.indexOf(TAG)).isEqualTo(5);
        assertThat(c.indexOf(Param.query("dry", ParamType.STRING))).isEqualTo(4);
        assertThat(c.indexOf(Param.path("dry"))).isEqualTo(-1);
        assertThat(c.indexOf(Param.query("nope"))).isEqualTo(-1);
    }

    @Test
    void pathValueCountMustMatchThePattern() {
        assertThatThrownBy(() -> all().coerce(new String[] {"1"}, Map.of(), null))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
