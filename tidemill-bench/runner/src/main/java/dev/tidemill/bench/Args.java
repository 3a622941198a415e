package dev.tidemill.bench;

import java.util.Arrays;
import java.util.List;

/** The command-line pieces every suite's options share: a flag's value, a positive count, a comma list. */
public final class Args {
    private Args() {}

    /** @return the value after flag {@code name} at {@code args[i]}; a missing one is refused naming the flag */
    public static String value(List<String> args, int i, String name) {
        if (i >= args.size()) throw new IllegalArgumentException(name + " needs a value");
        return args.get(i);
    }

    /** @return {@code v} as an int of at least 1, else refused naming the flag */
    public static int positive(String v, String name) {
        int n = Integer.parseInt(v);
        if (n < 1) throw new IllegalArgumentException(name + " must be >= 1");
        return n;
    }

    /** @return the comma-separated words of {@code v}, trimmed, empty ones dropped */
    public static List<String> words(String v) {
        return Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
