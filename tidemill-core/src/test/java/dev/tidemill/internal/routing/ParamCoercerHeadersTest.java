package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Param;
import dev.tidemill.ParamType;
import dev.tidemill.Problem.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Header and cookie parameters in {@link ParamCoercer}: which fields it asks for, and how often. */
class ParamCoercerHeadersTest {
    static final Param<Integer> LIMIT = Param.header("X-Limit", ParamType.INT);
    static final Param<String> SESSION = Param.cookie("session");
    static final Param<Integer> VISITS = Param.cookie("visits", ParamType.INT).withDefault(0);
    static final Param<Optional<String>> THEME = Param.cookie("theme").optional();

    /** Headers from a map, recording every name asked for. */
    static Function<String, List<String>> headers(Map<String, List<String>> fields, List<String> asked) {
        return name -> {
            asked.add(name);
            for (Map.Entry<String, List<String>> e : fields.entrySet()) {
                if (e.getKey().equalsIgnoreCase(name)) return e.getValue();
            }
            return List.of();
        };
    }

    @Test
    void theCookieFieldsAreReadOnceForEveryCookieParameter() {
        ParamCoercer c = new ParamCoercer(List.of(SESSION, LIMIT, VISITS, THEME), new String[0]);
        assertThat(c.readsHeaders()).isTrue();
        List<String> asked = new ArrayList<>();
        ParamCoercer.Result r = c.coerce(new String[0], Map.of(), headers(Map.of("x-limit", List.of("4", "5"),
                "cookie", List.of("session=s1; visits=2", "session=s2; theme=dark")), asked));
        assertThat(r.errors()).isEmpty();
        assertThat(r.values()).containsExactly("s1", 4, 2, Optional.of("dark"));
        assertThat(asked).containsExactly("Cookie", "X-Limit");
    }

    @Test
    void pathAndQueryOnlyRoutesNeverAskForAHeader() {
        ParamCoercer c = new ParamCoercer(List.of(Param.query("q"), Param.path("id")), new String[] {"id"});
        assertThat(c.readsHeaders()).isFalse();
        List<String> asked = new ArrayList<>();
        assertThat(c.coerce(new String[] {"1"}, Map.of("q", List.of("x")), headers(Map.of(), asked)).ok()).isTrue();
        assertThat(asked).isEmpty();
    }

    @Test
    void missingOrInvalidValuesAreFieldErrorsAtTheirLocation() {
        ParamCoercer c = new ParamCoercer(List.of(LIMIT, SESSION, VISITS, THEME), new String[0]);
        ParamCoercer.Result none = c.coerce(new String[0], Map.of(), null);
        assertThat(none.errors()).containsExactly(
                new FieldError("missing", List.of("header", "X-Limit"), "Field required", Optional.empty()),
                new FieldError("missing", List.of("cookie", "session"), "Field required", Optional.empty()));
        assertThat(none.values()).containsExactly(null, null, 0, Optional.empty());
        ParamCoercer.Result bad = c.coerce(new String[0], Map.of("X-Limit", List.of("1")),
                headers(Map.of("X-Limit", List.of("x"), "Cookie", List.of("session=a; visits=lots")), new ArrayList<>()));
        assertThat(bad.errors()).containsExactly(
                new FieldError("int_parsing", List.of("header", "X-Limit"), "Input should be a valid integer", Optional.of("x")),
                new FieldError("int_parsing", List.of("cookie", "visits"), "Input should be a valid integer", Optional.of("lots")));
    }

    @Test
    void headerNamesAreOneInAnyCase() {
        assertThatThrownBy(() -> new ParamCoercer(List.of(LIMIT, Param.header("x-limit")), new String[0]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("declared twice");
        ParamCoercer c = new ParamCoercer(List.of(SESSION, LIMIT), new String[0]);
        assertThat(c.indexOf(Param.header("x-LIMIT"))).isEqualTo(1);
        assertThat(c.indexOf(Param.cookie("SESSION"))).isEqualTo(-1);
        assertThat(c.indexOf(Param.query("X-Limit"))).isEqualTo(-1);
    }
}
