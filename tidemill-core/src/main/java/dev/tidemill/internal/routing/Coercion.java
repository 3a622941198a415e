package dev.tidemill.internal.routing;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.UUID;

/**
 * The text-to-value functions behind {@link dev.tidemill.ParamType}. Each is stricter than the JDK
 * parser it may end with: the JDK accepts forms ({@code 0x1p3}, {@code 1d}, {@code 1-1-1-1-1},
 * non-ASCII digits) that no client means, so the grammar is checked first. Every failure is an
 * {@link IllegalArgumentException} whose message is fit for a 422 {@code msg} field.
 */
public final class Coercion {
    private static final String INT_MSG = "Input should be a valid integer";
    private static final String INT_RANGE_MSG =
            "Input should be a valid integer between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE;
    private static final String LONG_RANGE_MSG =
            "Input should be a valid integer between " + Long.MIN_VALUE + " and " + Long.MAX_VALUE;
    private static final String NUMBER_MSG = "Input should be a valid number";
    private static final String FINITE_MSG = "Input should be a finite number";
    private static final String BOOL_MSG = "Input should be a valid boolean";
    private static final String UUID_MSG = "Input should be a valid UUID";
    private static final String DATE_MSG = "Input should be a valid date in the format YYYY-MM-DD";
    private static final String DATE_TIME_MSG =
            "Input should be a valid ISO 8601 date-time with an offset, e.g. 2026-11-30T10:15:30Z";

    // uuuu (proleptic year), not yyyy (year of era): STRICT resolution with yyyy needs an era field.
    private static final DateTimeFormatter DATE =
            DateTimeFormatter.ofPattern("uuuu-MM-dd").withResolverStyle(ResolverStyle.STRICT);

    // Enum constants and the error message, computed once per enum class.
    private static final ClassValue<Object[]> ENUMS = new ClassValue<>() {
        @Override
        protected Object[] computeValue(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            StringBuilder msg = new StringBuilder("Input should be one of: ");
            for (int i = 0; i < constants.length; i++) {
                msg.append(i == 0 ? "" : ", ").append(((Enum<?>) constants[i]).name());
            }
            return new Object[] {constants, msg.toString()};
        }
    };

    private Coercion() {}

    /** @param s decimal text, optional sign @return the int @throws IllegalArgumentException if not a valid int */
    public static Integer toInt(String s) {
        return (int) decimal(s, Integer.MIN_VALUE, Integer.MAX_VALUE, INT_RANGE_MSG);
    }

    /** @param s decimal text, optional sign @return the long @throws IllegalArgumentException if not a valid long */
    public static Long toLong(String s) {
        return decimal(s, Long.MIN_VALUE, Long.MAX_VALUE, LONG_RANGE_MSG);
    }

    /**
     * @param s decimal text, optional exponent ({@code -1.5}, {@code .5}, {@code 1.5e3})
     * @return the double
     * @throws IllegalArgumentException if not a number, or not finite ({@code NaN}, {@code Infinity},
     *     {@code 1e999})
     */
    public static Double toDouble(String s) {
        if (s == null) throw new IllegalArgumentException(NUMBER_MSG);
        if (!isDecimalFloat(s)) {
            String t = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
            boolean nonFinite = t.equalsIgnoreCase("nan") || t.equalsIgnoreCase("infinity") || t.equalsIgnoreCase("inf");
            throw new IllegalArgumentException(nonFinite ? FINITE_MSG : NUMBER_MSG);
        }
        double d = Double.parseDouble(s); // safe: the grammar was checked, no hex, no suffix
        if (Double.isInfinite(d)) throw new IllegalArgumentException(FINITE_MSG);
        return d;
    }

    /** @param s {@code true/1/yes/on} or {@code false/0/no/off}, any case @return the boolean */
    public static Boolean toBoolean(String s) {
        if (s != null) {
            if (asciiEqualsIgnoreCase(s, "true") || s.equals("1") || asciiEqualsIgnoreCase(s, "yes")
                    || asciiEqualsIgnoreCase(s, "on")) return Boolean.TRUE;
            if (asciiEqualsIgnoreCase(s, "false") || s.equals("0") || asciiEqualsIgnoreCase(s, "no")
                    || asciiEqualsIgnoreCase(s, "off")) return Boolean.FALSE;
        }
        throw new IllegalArgumentException(BOOL_MSG);
    }

    /** @param s canonical 8-4-4-4-12 hex, either case @return the UUID */
    public static UUID toUuid(String s) {
        // UUID.fromString also takes short groups (1-1-1-1-1); insist on the canonical form.
        if (s == null || s.length() != 36) throw new IllegalArgumentException(UUID_MSG);
        for (int i = 0; i < 36; i++) {
            char c = s.charAt(i);
            boolean ok = i == 8 || i == 13 || i == 18 || i == 23 ? c == '-' : hexDigit(c);
            if (!ok) throw new IllegalArgumentException(UUID_MSG);
        }
        return UUID.fromString(s);
    }

    /** @param s ISO {@code yyyy-MM-dd}, a real calendar date @return the date */
    public static LocalDate toLocalDate(String s) {
        try {
            return LocalDate.parse(s, DATE);
        } catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalArgumentException(DATE_MSG);
        }
    }

    /** @param s ISO 8601 date-time with an offset or {@code Z} @return the date-time */
    public static OffsetDateTime toOffsetDateTime(String s) {
        try {
            return OffsetDateTime.parse(s, DateTimeFormatter.ISO_OFFSET_DATE_TIME);
        } catch (DateTimeParseException | NullPointerException e) {
            throw new IllegalArgumentException(DATE_TIME_MSG);
        }
    }

    /** @param s ISO 8601 date-time with an offset or {@code Z} @return the same instant */
    public static Instant toInstant(String s) {
        return toOffsetDateTime(s).toInstant();
    }

    /**
     * @param type the enum class
     * @param s a constant's name, any case (an exact match wins over a case-insensitive one)
     * @param <E> the enum
     * @return the constant
     * @throws IllegalArgumentException naming the allowed values
     */
    public static <E extends Enum<E>> E toEnum(Class<E> type, String s) {
        Object[] info = ENUMS.get(type);
        Object[] constants = (Object[]) info[0];
        if (s != null) {
            for (Object c : constants) {
                if (((Enum<?>) c).name().equals(s)) return type.cast(c);
            }
            for (Object c : constants) {
                if (asciiEqualsIgnoreCase(((Enum<?>) c).name(), s)) return type.cast(c);
            }
        }
        throw new IllegalArgumentException((String) info[1]);
    }

    /** Optional sign, then ASCII digits only, range-checked without overflow. */
    private static long decimal(String s, long min, long max, String rangeMsg) {
        int n = s == null ? 0 : s.length();
        int start = n > 0 && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        if (start == n) throw new IllegalArgumentException(INT_MSG);
        // Syntax first, so that "99999999999x" reads as not-an-integer rather than out-of-range.
        for (int i = start; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') throw new IllegalArgumentException(INT_MSG);
        }
        boolean negative = s.charAt(0) == '-';
        // Accumulate negatively, as Long.parseLong does: the negative range is one larger.
        long limit = negative ? min : -max;
        long multMin = limit / 10;
        long result = 0;
        for (int i = start; i < n; i++) {
            int d = s.charAt(i) - '0';
            if (result < multMin) throw new IllegalArgumentException(rangeMsg);
            result *= 10;
            if (result < limit + d) throw new IllegalArgumentException(rangeMsg);
            result -= d;
        }
        return negative ? result : -result;
    }

    /** {@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?}, ASCII only. */
    private static boolean isDecimalFloat(String s) {
        int n = s.length();
        int i = n > 0 && (s.charAt(0) == '-' || s.charAt(0) == '+') ? 1 : 0;
        int intDigits = 0;
        while (i < n && isDigit(s.charAt(i))) { i++; intDigits++; }
        int fracDigits = 0;
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) { i++; fracDigits++; }
        }
        if (intDigits + fracDigits == 0) return false;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '-' || s.charAt(i) == '+')) i++;
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) { i++; expDigits++; }
            if (expDigits == 0) return false;
        }
        return i == n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean hexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** Case-insensitive for ASCII letters only, so that e.g. U+017F (long s) never passes for 's'. */
    private static boolean asciiEqualsIgnoreCase(String a, String b) {
        if (a.length() != b.length()) return false;
        for (int i = 0; i < a.length(); i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x == y) continue;
            if (x >= 'A' && x <= 'Z') x += 32;
            if (y >= 'A' && y <= 'Z') y += 32;
            if (x != y || x < 'a' || x > 'z') return false;
        }
        return true;
    }
}
