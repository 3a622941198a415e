package dev.tidemill.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.tidemill.internal.routing.Coercion;
import java.util.function.Function;
import java.util.List;

/**
 * Typed-parameter coercion: for every type, any text either converts or is refused with
 * {@link IllegalArgumentException} (the 422 message); nothing else escapes (no
 * DateTimeException, ArithmeticException or NullPointerException).
 */
class CoercionFuzzTest {
    private enum Colour { RED, GREEN }

    private static final List<Function<String, ?>> COERCIONS = List.of(Coercion::toInt, Coercion::toLong,
            Coercion::toDouble, Coercion::toBoolean, Coercion::toUuid, Coercion::toLocalDate, Coercion::toOffsetDateTime,
            Coercion::toInstant, s -> Coercion.toEnum(Colour.class, s));

    @FuzzTest(maxDuration = "5s")
    void convertsOrRefuses(String text) {
        if (text == null) return; // Jazzer also tries null; the server never passes it
        for (Function<String, ?> c : COERCIONS) {
            try {
                c.apply(text);
            } catch (IllegalArgumentException expected) {
                // the documented refusal
            }
        }
    }
}
