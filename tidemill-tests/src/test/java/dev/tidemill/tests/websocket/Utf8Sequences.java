package dev.tidemill.tests.websocket;

import static dev.tidemill.tests.websocket.WsCases.hex;

import java.util.ArrayList;
import java.util.List;

/**
 * The UTF-8 test sequences of Autobahn|Testsuite cases 6.5-6.23, as facts: Markus Kuhn's
 * UTF-8-test.txt groups (valid text, boundaries, unexpected continuations, lonely starts, missing
 * continuations, impossible bytes, overlong forms, surrogates, non-characters, specials), each
 * sequence with whether it is valid UTF-8 (RFC 3629).
 */
final class Utf8Sequences {
    /** One group: its Autobahn subsection (6.5 ...) and title, and its sequences. */
    record Group(int subsection, String title, List<Sequence> sequences) { }

    /** A byte sequence and whether it is valid UTF-8. */
    record Sequence(boolean valid, byte[] bytes) { }

    /** κόσμε: the Greek word of Kuhn's test file, 11 bytes in 2- and 3-byte code points. */
    static final byte[] KOSME = hex("cebae1bdb9cf83cebcceb5");

    private Utf8Sequences() {}

    static List<Group> groups() {
        List<Group> g = new ArrayList<>();
        g.add(group(5, "some valid UTF-8 sequences", "y:68656c6c6f24776f726c64", "y:68656c6c6fc2a2776f726c64",
                "y:68656c6c6fe282ac776f726c64", "y:68656c6c6ff0a4ada2776f726c64", "y:cebae1bdb9cf83cebcceb5"));
        List<Sequence> prefixes = new ArrayList<>();
        for (int i = 1; i <= KOSME.length; i++) {
            // a prefix is valid exactly when it ends on a code point boundary: after byte 2, 5, 7, 9, 11
            boolean boundary = i == 2 || i == 5 || i == 7 || i == 9 || i == 11;
            prefixes.add(new Sequence(boundary, java.util.Arrays.copyOf(KOSME, i)));
        }
        g.add(new Group(6, "all prefixes of a valid string with multi-byte code points", prefixes));
        g.add(group(7, "first possible sequence of a certain length", "y:00", "y:c280", "y:e0a080", "y:f0908080"));
        g.add(group(8, "first possible sequence of length 5 and 6 (beyond U+10FFFF)", "n:f888808080", "n:fc8480808080"));
        g.add(group(9, "last possible sequence of a certain length", "y:7f", "y:dfbf", "y:efbfbf", "y:f48fbfbf"));
        g.add(group(10, "last possible sequence of length 4, 5 and 6 (beyond U+10FFFF)", "n:f7bfbfbf", "n:fbbfbfbfbf", "n:fdbfbfbfbfbf"));
        g.add(group(11, "other boundary conditions", "y:ed9fbf", "y:ee8080", "y:efbfbd", "y:f48fbfbf", "n:f4908080"));
        StringBuilder allContinuations = new StringBuilder("n:");
        for (int b = 0x80; b < 0xbf; b++) allContinuations.append(String.format("%02x", b));
        g.add(group(12, "unexpected continuation bytes", "n:80", "n:bf", "n:80bf", "n:80bf80", "n:80bf80bf", "n:80bf80bf80",
                "n:80bf80bf80bf", allContinuations.toString()));
        int[][] starts = {{0xc0, 0xdf}, {0xe0, 0xef}, {0xf0, 0xf7}, {0xf8, 0xfb}, {0xfc, 0xfd}};
        List<Sequence> lonely = new ArrayList<>();
        for (int[] range : starts) {
            StringBuilder s = new StringBuilder();
            for (int b = range[0]; b < range[1]; b++) s.append(String.format("%02x20", b));
            lonely.add(new Sequence(false, hex(s.toString())));
        }
        g.add(new Group(13, "lonely start bytes, each followed by a space", lonely));
        String[] missing = {"c0", "e080", "f08080", "f8808080", "fc80808080", "df", "efbf", "f7bfbf", "fbbfbfbf", "fdbfbfbfbf"};
        List<Sequence> missingLast = new ArrayList<>();
        for (String m : missing) missingLast.add(new Sequence(false, hex(m)));
        g.add(new Group(14, "sequences with the last continuation byte missing", missingLast));
        g.add(new Group(15, "concatenation of incomplete sequences", List.of(new Sequence(false, hex(String.join("", missing))))));
        g.add(group(16, "impossible bytes", "n:fe", "n:ff", "n:fefeffff"));
        g.add(group(17, "overlong ASCII character", "n:c0af", "n:e080af", "n:f08080af", "n:f8808080af", "n:fc80808080af"));
        g.add(group(18, "maximum overlong sequences", "n:c1bf", "n:e09fbf", "n:f08fbfbf", "n:f887bfbfbf", "n:fc83bfbfbfbf"));
        g.add(group(19, "overlong NUL", "n:c080", "n:e08080", "n:f0808080", "n:f880808080", "n:fc8080808080"));
        g.add(group(20, "single UTF-16 surrogates", "n:eda080", "n:edadbf", "n:edae80", "n:edafbf", "n:edb080", "n:edbe80", "n:edbfbf"));
        g.add(group(21, "paired UTF-16 surrogates", "n:eda080edb080", "n:eda080edbfbf", "n:edadbfedb080", "n:edadbfedbfbf",
                "n:edae80edb080", "n:edae80edbfbf", "n:edafbfedb080", "n:edafbfedbfbf"));
        List<Sequence> nonCharacters = new ArrayList<>(List.of(new Sequence(true, hex("efbfbe")), new Sequence(true, hex("efbfbf"))));
        for (String z1 : new String[] {"f0", "f1", "f2", "f3", "f4"}) {
            for (String z2 : new String[] {"8f", "9f", "af", "bf"}) {
                if (z1.equals("f4") && !z2.equals("8f")) continue; // beyond U+10FFFF
                for (String z3 : new String[] {"be", "bf"}) {
                    String s = z1 + z2 + "bf" + z3;
                    if (!s.startsWith("f08f")) nonCharacters.add(new Sequence(true, hex(s))); // f08f... is overlong
                }
            }
        }
        g.add(new Group(22, "non-character code points (valid UTF-8)", nonCharacters));
        g.add(group(23, "Unicode specials, the replacement character among them", "y:efbfb9", "y:efbfba", "y:efbfbb", "y:efbfbc",
                "y:efbfbd", "y:efbfbe", "y:efbfbf"));
        return g;
    }

    /** @param sequences {@code y:hex} for valid, {@code n:hex} for invalid */
    private static Group group(int subsection, String title, String... sequences) {
        List<Sequence> s = new ArrayList<>();
        for (String q : sequences) s.add(new Sequence(q.startsWith("y:"), hex(q.substring(2))));
        return new Group(subsection, title, s);
    }
}
