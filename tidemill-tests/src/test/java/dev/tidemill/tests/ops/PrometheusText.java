package dev.tidemill.tests.ops;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text exposition format 0.0.4, as the Prometheus server reads a
 * scrape (https://prometheus.io/docs/instrumenting/exposition_formats/): {@code # HELP} and
 * {@code # TYPE} lines, samples {@code name{label="value",...} value [timestamp]} with the
 * format's escapes, and the rules a scrape must keep or Prometheus rejects it: a TYPE at most once
 * per family and before its samples, a family's samples in one group, sample names that belong to
 * their family's type (a histogram's {@code _bucket}/{@code _sum}/{@code _count}, a summary's
 * quantiles, {@code _sum}, {@code _count}), no series twice, a bucket's {@code le} and a quantile's
 * {@code quantile} present and numeric. Written for the tests: Prometheus' Java client only writes
 * this format. Anything it does not accept throws {@link IllegalArgumentException} naming the line.
 */
final class PrometheusText {
    private static final Pattern METRIC_NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped");

    /** One sample: its name, labels (sorted by name) and value. */
    record Sample(String name, Map<String, String> labels, double value) {}

    /** A metric family: name, type, help and its samples in order. */
    record Family(String name, String type, String help, List<Sample> samples) {}

    private final Map<String, Family> families = new LinkedHashMap<>();

    private PrometheusText() {}

    /** @return every family, by name */
    Map<String, Family> families() {
        return families;
    }

    /** @return every sample named {@code name}, whatever family holds it */
    List<Sample> samples(String name) {
        List<Sample> out = new ArrayList<>();
        for (Family f : families.values()) for (Sample s : f.samples()) if (s.name().equals(name)) out.add(s);
        return out;
    }

    /**
     * @param name a sample name
     * @param labels label name/value pairs the sample must carry (others may exist)
     * @return the one sample's value, if exactly one matches
     */
    Optional<Double> value(String name, String... labels) {
        List<Sample> found = new ArrayList<>();
        for (Sample s : samples(name)) {
            boolean match = true;
            for (int i = 0; i < labels.length; i += 2) match &= labels[i + 1].equals(s.labels().get(labels[i]));
            if (match) found.add(s);
        }
        if (found.size() > 1) throw new IllegalStateException(found.size() + " samples of " + name + " match " + List.of(labels));
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0).value());
    }

    static PrometheusText parse(String text) {
        PrometheusText out = new PrometheusText();
        if (!text.isEmpty() && !text.endsWith("\n")) throw new IllegalArgumentException("the last line has no line feed");
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> helps = new LinkedHashMap<>();
        Set<String> closed = new HashSet<>();
        Set<String> series = new HashSet<>();
        String current = null;
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) continue;
            try {
                if (line.startsWith("#")) {
                    String[] parts = line.split(" ", 4);
                    if (parts.length >= 3 && (parts[1].equals("HELP") || parts[1].equals("TYPE"))) {
                        String name = parts[2];
                        name(name);
                        if (closed.contains(name) || (out.families.containsKey(name) && !name.equals(current))) {
                            throw new IllegalArgumentException("metadata for " + name + " after its samples ended");
                        }
                        if (parts[1].equals("TYPE")) {
                            String type = parts.length == 4 ? parts[3] : "";
                            if (!TYPES.contains(type)) throw new IllegalArgumentException("unknown type " + type);
                            if (types.put(name, type) != null) throw new IllegalArgumentException("second TYPE for " + name);
                            if (out.families.containsKey(name) && !out.families.get(name).samples().isEmpty()) {
                                throw new IllegalArgumentException("TYPE for " + name + " after its samples");
                            }
                        } else if (helps.put(name, parts.length == 4 ? unescapeHelp(parts[3]) : "") != null) {
                            throw new IllegalArgumentException("second HELP for " + name);
                        }
                        if (current != null && !current.equals(name)) closed.add(current);
                        current = name;
                        out.families.computeIfAbsent(name, k -> new Family(k, "untyped", "", new ArrayList<>()));
                    }
                    continue; // any other comment is ignored, as Prometheus does
                }
                Sample s = sample(line);
                String family = familyOf(s.name(), types);
                if (!family.equals(current)) {
                    if (closed.contains(family) || (out.families.containsKey(family) && !out.families.get(family).samples().isEmpty())) {
                        throw new IllegalArgumentException("samples of " + family + " are not in one group");
                    }
                    if (current != null) closed.add(current);
                    current = family;
                }
                if (!series.add(s.name() + s.labels())) throw new IllegalArgumentException("series twice: " + s.name() + s.labels());
                out.families.computeIfAbsent(family, k -> new Family(k, "untyped", "", new ArrayList<>())).samples().add(s);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("line " + n + ": " + e.getMessage() + ": " + line, e);
            }
        }
        Map<String, Family> typed = new LinkedHashMap<>();
        out.families.forEach((k, f) -> typed.put(k, new Family(k, types.getOrDefault(k, "untyped"), helps.getOrDefault(k, ""), f.samples())));
        out.families.clear();
        out.families.putAll(typed);
        for (Family f : out.families.values()) check(f);
        return out;
    }

    /** The family a sample belongs to: itself, or the histogram or summary its suffix names. */
    private static String familyOf(String sample, Map<String, String> types) {
        for (String suffix : List.of("_bucket", "_count", "_sum")) {
            if (sample.endsWith(suffix)) {
                String base = sample.substring(0, sample.length() - suffix.length());
                String t = types.get(base);
                if ("histogram".equals(t) || ("summary".equals(t) && !suffix.equals("_bucket"))) return base;
            }
        }
        return sample;
    }

    private static void check(Family f) {
        for (Sample s : f.samples()) {
            switch (f.type()) {
                case "histogram" -> {
                    if (s.name().equals(f.name())) throw new IllegalArgumentException("histogram " + f.name() + " has a bare sample");
                    if (s.name().endsWith("_bucket")) number(s.labels().get("le"), "le of " + s);
                }
                case "summary" -> {
                    if (s.name().equals(f.name())) number(s.labels().get("quantile"), "quantile of " + s);
                }
                case "counter" -> {
                    if (s.value() < 0) throw new IllegalArgumentException("negative counter " + s);
                }
                default -> { }
            }
        }
    }

    private static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') i++;
        String name = line.substring(0, i);
        name(name);
        Map<String, String> labels = new TreeMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (true) {
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                String label = line.substring(i, eq);
                if (!LABEL_NAME.matcher(label).matches() || label.startsWith("__")) throw new IllegalArgumentException("bad label name " + label);
                if (line.charAt(eq + 1) != '"') throw new IllegalArgumentException("label value not quoted");
                StringBuilder v = new StringBuilder();
                int j = eq + 2;
                for (; line.charAt(j) != '"'; j++) {
                    char c = line.charAt(j);
                    if (c == '\\') {
                        char e = line.charAt(++j);
                        v.append(switch (e) {
                            case '\\' -> '\\';
                            case '"' -> '"';
                            case 'n' -> '\n';
                            default -> throw new IllegalArgumentException("bad escape \\" + e);
                        });
                    } else {
                        v.append(c);
                    }
                }
                if (labels.put(label, v.toString()) != null) throw new IllegalArgumentException("label " + label + " twice");
                i = j + 1;
                if (line.charAt(i) == ',') i++;
                else if (line.charAt(i) != '}') throw new IllegalArgumentException("expected , or } after a label");
            }
        }
        if (i >= line.length() || line.charAt(i) != ' ') throw new IllegalArgumentException("no space before the value");
        String[] rest = line.substring(i + 1).split(" ", -1);
        if (rest.length > 2) throw new IllegalArgumentException("more than a value and a timestamp");
        double value = number(rest[0], "value");
        if (rest.length == 2) Long.parseLong(rest[1]);
        return new Sample(name, labels, value);
    }

    private static double number(String s, String what) {
        if (s == null) throw new IllegalArgumentException(what + " missing");
        return switch (s) {
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> {
                if (!s.matches("[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?")) throw new IllegalArgumentException(what + " not a number: " + s);
                yield Double.parseDouble(s);
            }
        };
    }

    private static void name(String name) {
        if (!METRIC_NAME.matcher(name).matches()) throw new IllegalArgumentException("bad metric name " + name);
    }

    private static String unescapeHelp(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = s.charAt(++i);
            out.append(switch (e) {
                case '\\' -> '\\';
                case 'n' -> '\n';
                default -> throw new IllegalArgumentException("bad escape in HELP \\" + e);
            });
        }
        return out.toString();
    }

    /**
     * @return for each histogram series (name and labels without {@code le}), its buckets in
     *     ascending {@code le} with their cumulative counts
     */
    Map<String, TreeMap<Double, Double>> buckets(String histogram) {
        Map<String, TreeMap<Double, Double>> out = new LinkedHashMap<>();
        for (Sample s : samples(histogram + "_bucket")) {
            Map<String, String> key = new TreeMap<>(s.labels());
            double le = number(key.remove("le"), "le");
            out.computeIfAbsent(key.toString(), k -> new TreeMap<>()).put(le, s.value());
        }
        return out;
    }
}
