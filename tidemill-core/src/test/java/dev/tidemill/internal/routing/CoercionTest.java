package dev.tidemill.internal.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.ParamType;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CoercionTest {
    private static final String INT_MSG = "Input should be a valid integer";

    enum Color { RED, GREEN }

    @Test
    void intAcceptsSignedAsciiDecimalWithinRange() {
        assertThat(Coercion.toInt("0")).isZero();
        assertThat(Coercion.toInt("-0")).isZero();
        assertThat(Coercion.toInt("+42")).isEqualTo(42);
        assertThat(Coercion.toInt("007")).isEqualTo(7);
        assertThat(Coercion.toInt("2147483647")).isEqualTo(Integer.MAX_VALUE);
        assertThat(Coercion.toInt("-2147483648")).isEqualTo(Integer.MIN_VALUE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-", "+", " 1", "1 ", "1.0", "1e3", "0x10", "abc", "1_000", "--1", "\u0661", "1\u0662"})
    void intRefusesAnythingButSignedAsciiDigits(String s) {
        assertThatThrownBy(() -> Coercion.toInt(s)).isInstanceOf(IllegalArgumentException.class).hasMessage(INT_MSG);
    }

    @ParameterizedTest
    @ValueSource(strings = {"2147483648", "-2147483649", "99999999999999999999999"})
    void intOutOfRangeSaysTheRange(String s) {
        assertThatThrownBy(() -> Coercion.toInt(s))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Input should be a valid integer between -2147483648 and 2147483647");
    }

    @Test
    void intRefusesNull() {
        assertThatThrownBy(() -> Coercion.toInt(null)).hasMessage(INT_MSG);
    }

    @Test
    void longBoundaries() {
        assertThat(Coercion.toLong("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(Coercion.toLong("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(Coercion.toLong("2147483648")).isEqualTo(2147483648L);
        assertThatThrownBy(() -> Coercion.toLong("9223372036854775808"))
                .hasMessage("Input should be a valid integer between -9223372036854775808 and 9223372036854775807");
        assertThatThrownBy(() -> Coercion.toLong("-9223372036854775809")).hasMessageContaining("between");
        assertThatThrownBy(() -> Coercion.toLong("1L")).hasMessage(INT_MSG);
    }

    @ParameterizedTest
    @CsvSource({"1.5e3,1500", "-2.5,-2.5", ".5,0.5", "1.,1", "+3,3", "1E-2,0.01", "-0,-0.0", "1e-999,0"})
    void doubleAcceptsDecimalAndExponentForms(String s, double expected) {
        assertThat(Coercion.toDouble(s)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"NaN", "Infinity", "-Infinity", "+inf", "1e999", "-1e400"})
    void doubleRefusesNonFinite(String s) {
        assertThatThrownBy(() -> Coercion.toDouble(s)).hasMessage("Input should be a finite number");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "0x10", "0x1p3", "1d", "1f", "1D", " 1", "1 ", "e5", "1e", "1e+", "1,5", "--1", "\u0661"})
    void doubleRefusesWhatParseDoubleWouldWronglyAccept(String s) {
        assertThatThrownBy(() -> Coercion.toDouble(s)).hasMessage("Input should be a valid number");
    }

    @ParameterizedTest
    @CsvSource({"true,true", "TRUE,true", "1,true", "Yes,true", "on,true", "false,false", "False,false", "0,false",
        "NO,false", "off,false"})
    void booleanWords(String s, boolean expected) {
        assertThat(Coercion.toBoolean(s)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "t", "2", "y", "truee", " true", "ye\u017f", "nope"})
    void booleanRefusesOtherWords(String s) {
        assertThatThrownBy(() -> Coercion.toBoolean(s)).hasMessage("Input should be a valid boolean");
    }

    @Test
    void uuidCanonicalFormEitherCase() {
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertThat(Coercion.toUuid("123e4567-e89b-12d3-a456-426614174000")).isEqualTo(u);
        assertThat(Coercion.toUuid("123E4567-E89B-12D3-A456-426614174000")).isEqualTo(u);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1-1-1-1-1", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400",
        "123e4567-e89b-12d3-a456-4266141740000", "123e4567-e89b-12d3-a456_426614174000",
        "g23e4567-e89b-12d3-a456-426614174000", "{123e4567-e89b-12d3-a456-426614174000}", ""})
    void uuidRefusesShortAndOtherForms(String s) {
        assertThatThrownBy(() -> Coercion.toUuid(s)).hasMessage("Input should be a valid UUID");
    }

    @Test
    void localDateFollowsTheRealCalendar() {
        assertThat(Coercion.toLocalDate("2024-02-29")).isEqualTo(LocalDate.of(2024, 2, 29));
        assertThat(Coercion.toLocalDate("2026-11-30")).isEqualTo(LocalDate.of(2026, 11, 30));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-02-29", "2026-02-30", "2026-13-01", "2026-1-01", "26-01-01", "2026/01/01",
        "2026-01-01T00:00", "", " 2026-01-01"})
    void localDateRefusesImpossibleOrOtherFormats(String s) {
        assertThatThrownBy(() -> Coercion.toLocalDate(s))
                .hasMessage("Input should be a valid date in the format YYYY-MM-DD");
    }

    @Test
    void offsetDateTimeWithZOrOffset() {
        assertThat(Coercion.toOffsetDateTime("2026-11-30T10:15:30Z"))
                .isEqualTo(OffsetDateTime.of(2026, 11, 30, 10, 15, 30, 0, ZoneOffset.UTC));
        assertThat(Coercion.toOffsetDateTime("2026-11-30T10:15:30+01:00"))
                .isEqualTo(OffsetDateTime.of(2026, 11, 30, 10, 15, 30, 0, ZoneOffset.ofHours(1)));
        assertThat(Coercion.toOffsetDateTime("2026-11-30T10:15:30.123-05:30").getNano()).isEqualTo(123_000_000);
    }

    @Test
    void instantIsNormalisedToUtc() {
        assertThat(Coercion.toInstant("2026-11-30T10:15:30+01:00")).isEqualTo(Instant.parse("2026-11-30T09:15:30Z"));
        assertThat(Coercion.toInstant("2026-11-30T10:15:30Z")).isEqualTo(Instant.parse("2026-11-30T10:15:30Z"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-30T10:15:30", "2026-11-30", "2026-02-30T10:15:30Z", "2026-11-30 10:15:30Z",
        "2026-11-30T25:00:00Z", "1764497730", ""})
    void dateTimeRefusesMissingOffsetAndImpossibleValues(String s) {
        String msg = "Input should be a valid ISO 8601 date-time with an offset, e.g. 2026-11-30T10:15:30Z";
        assertThatThrownBy(() -> Coercion.toOffsetDateTime(s)).hasMessage(msg);
        assertThatThrownBy(() -> Coercion.toInstant(s)).hasMessage(msg);
    }

    @Test
    void enumByNameAnyCase() {
        assertThat(Coercion.toEnum(Color.class, "RED")).isEqualTo(Color.RED);
        assertThat(Coercion.toEnum(Color.class, "green")).isEqualTo(Color.GREEN);
        assertThat(Coercion.toEnum(Color.class, "gReEn")).isEqualTo(Color.GREEN);
        assertThatThrownBy(() -> Coercion.toEnum(Color.class, "BLUE"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Input should be one of: RED, GREEN");
        assertThatThrownBy(() -> Coercion.toEnum(Color.class, "")).hasMessage("Input should be one of: RED, GREEN");
    }

    @Test
    void paramTypesUseTheseFunctions() {
        assertThat(ParamType.INT.parse("12")).isEqualTo(12);
        assertThat(ParamType.enumOf(Color.class).parse("red")).isEqualTo(Color.RED);
        assertThatThrownBy(() -> ParamType.DOUBLE.parse("NaN")).hasMessage("Input should be a finite number");
    }
}
