package dev.tidemill;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The one format of the API keys and Basic users files: a line per entry, {@code name secret
 * [scope ...]} separated by whitespace, blank lines and {@code #} comments skipped.
 */
final class CredentialFile {
    /**
     * One entry.
     *
     * @param line its line number, for messages
     * @param name the first field
     * @param secret the second (a digest or a hash)
     * @param scopes the rest
     */
    record Row(int line, String name, String secret, Set<String> scopes) { }

    private CredentialFile() {}

    /**
     * @param text the file's content
     * @param what what the file holds and the line it expects, for messages
     * @return its entries
     */
    static List<Row> rows(String text, String what) {
        List<Row> rows = new ArrayList<>();
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            String t = line.strip();
            if (t.isEmpty() || t.startsWith("#")) continue;
            String[] parts = t.split("\\s+");
            if (parts.length < 2) throw new IllegalArgumentException(what + ", line " + n + ": too few fields");
            rows.add(new Row(n, parts[0], parts[1], new LinkedHashSet<>(List.of(parts).subList(2, parts.length))));
        }
        return rows;
    }

    /** @return the file's content @throws UncheckedIOException naming what it is when it cannot be read */
    static String read(Path file, String what) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(what + " file " + file + " cannot be read", e);
        }
    }
}
