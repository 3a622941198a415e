package dev.tidemill.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code new NAME}: a Maven project on Tidemill, from the templates under
 * {@code dev/tidemill/cli/scaffold/} and the versions the CLI was built with
 * ({@code versions.properties}, filled in from the parent POM).
 *
 * <p>Templates have {@code {{key}}} placeholders and whole-line sections: the lines between
 * {@code {{#controllers}}} and {@code {{/controllers}}} are written only with {@code --controllers},
 * those between {@code {{^controllers}}} and {@code {{/controllers}}} only without it; the marker
 * lines themselves never are. So a project without {@code --controllers} is what the templates
 * give with every section of that kind dropped.
 *
 * @param name the artifact id and directory name
 * @param javaPackage the Java package of Main and the tests, also the group id
 * @param target the directory to create (or fill, if it exists and is empty)
 * @param controllers whether the routes are a {@code @Controller} class, compiled by
 *     {@code tidemill-processor} (the pom names it as an annotation processor), rather than lambdas in Main
 */
record Scaffold(String name, String javaPackage, Path target, boolean controllers) {
    /** An artifact id that is also a safe directory name on every OS: no dots, no upper case, no leading digit. */
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    static final int MAX_NAME = 64;
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");
    private static final Set<String> KEYWORDS = Set.of("abstract", "assert", "boolean", "break", "byte", "case",
            "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum", "extends", "final",
            "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int", "interface", "long",
            "native", "new", "package", "private", "protected", "public", "return", "short", "static", "strictfp",
            "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void", "volatile",
            "while", "true", "false", "null", "_", "var", "record", "yield", "sealed", "permits", "non-sealed");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z0-9]+)}}");
    /** A section's marker, alone on its line: {@code {{#flag}}}, {@code {{^flag}}} or {@code {{/flag}}}. */
    private static final Pattern SECTION = Pattern.compile("[ \\t]*\\{\\{([#^/])([A-Za-z0-9]+)}}[ \\t]*");

    /**
     * A template and the project path it becomes ({@code PKG} stands for the package's directories).
     *
     * @param resource the template, under {@code scaffold/}
     * @param path where it goes in the project
     * @param controllers {@code null}: in every project; true: only with {@code --controllers}; false: only without
     */
    private record ScaffoldFile(String resource, String path, Boolean controllers) {}

    private static final List<ScaffoldFile> FILES = List.of(
            new ScaffoldFile("pom.xml.tmpl", "pom.xml", null),
            new ScaffoldFile("README.md.tmpl", "README.md", null),
            new ScaffoldFile("gitignore.tmpl", ".gitignore", null),
            new ScaffoldFile("Main.java.tmpl", "src/main/java/PKG/Main.java", null),
            new ScaffoldFile("HelloTest.java.tmpl", "src/test/java/PKG/HelloTest.java", false),
            new ScaffoldFile("HelloInMemoryTest.java.tmpl", "src/test/java/PKG/HelloInMemoryTest.java", false),
            new ScaffoldFile("GreetingController.java.tmpl", "src/main/java/PKG/GreetingController.java", true),
            new ScaffoldFile("GreetingTest.java.tmpl", "src/test/java/PKG/GreetingTest.java", true),
            new ScaffoldFile("GreetingInMemoryTest.java.tmpl", "src/test/java/PKG/GreetingInMemoryTest.java", true));

    /**
     * Parses {@code NAME [--package PKG] [--dir DIR] [--controllers]}.
     *
     * @param args what follows {@code new}
     * @return the checked scaffold
     * @throws UsageException naming the first problem
     */
    static Scaffold fromArgs(List<String> args) {
        String name = null;
        String pkg = null;
        Path dir = Path.of("");
        boolean controllers = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--package" -> pkg = Main.value(args, i++);
                case "--dir" -> dir = Path.of(Main.value(args, i++));
                case "--controllers" -> controllers = true;
                default -> {
                    if (a.startsWith("-")) throw new UsageException("new: unknown option " + a);
                    if (name != null) throw new UsageException("new: one NAME only, got " + name + " and " + a);
                    name = a;
                }
            }
        }
        if (name == null) throw new UsageException("new: NAME missing (e.g. new hello-app)");
        checkName(name);
        if (pkg == null) pkg = "com.example." + name.replace("-", "");
        checkPackage(pkg);
        Path target = dir.resolve(name).toAbsolutePath().normalize();
        checkTarget(target);
        return new Scaffold(name, pkg, target, controllers);
    }

    static void checkName(String name) {
        if (name.length() > MAX_NAME || !NAME.matcher(name).matches()) {
            throw new UsageException("new: NAME must be lower-case letters, digits and single hyphens, start with a "
                    + "letter and be at most " + MAX_NAME + " characters (an artifact id), got \"" + name + "\"");
        }
    }

    static void checkPackage(String pkg) {
        for (String part : pkg.split("\\.", -1)) {
            if (!IDENTIFIER.matcher(part).matches() || KEYWORDS.contains(part)) {
                throw new UsageException("new: --package must be a Java package name such as com.example.app, got \""
                        + pkg + "\"");
            }
        }
    }

    private static void checkTarget(Path target) {
        if (Files.isRegularFile(target)) throw new UsageException("new: " + target + " exists and is a file");
        if (Files.isDirectory(target)) {
            try (Stream<Path> entries = Files.list(target)) {
                if (entries.findAny().isPresent()) {
                    throw new UsageException("new: " + target + " exists and is not empty; choose another NAME or --dir");
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + target + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Writes the project.
     *
     * @return the project's directory
     */
    Path write() {
        Map<String, String> values = values();
        Map<String, Boolean> flags = Map.of("controllers", controllers);
        String packagePath = javaPackage.replace('.', '/');
        try {
            for (ScaffoldFile f : FILES) {
                if (f.controllers() != null && f.controllers() != controllers) continue;
                Path out = target.resolve(f.path().replace("PKG", packagePath));
                Files.createDirectories(out.getParent());
                Files.writeString(out, fill(sections(template(f.resource()), flags), values), StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the project in " + target + ": " + e.getMessage(), e);
        }
        return target;
    }

    /** The placeholders' values: the project's names and the pinned versions. */
    Map<String, String> values() {
        Map<String, String> v = new LinkedHashMap<>();
        Properties versions = versions();
        v.put("tidemillVersion", versions.getProperty("tidemill"));
        v.put("junitVersion", versions.getProperty("junit"));
        v.put("assertjVersion", versions.getProperty("assertj"));
        v.put("slf4jVersion", versions.getProperty("slf4j"));
        for (String plugin : versions.stringPropertyNames()) {
            if (plugin.endsWith("Plugin")) v.put(plugin, versions.getProperty(plugin));
        }
        v.put("name", name);
        v.put("group", javaPackage);
        v.put("package", javaPackage);
        v.put("packagePath", javaPackage.replace('.', '/'));
        return v;
    }

    /** @return the versions this CLI was built with */
    static Properties versions() {
        Properties p = new Properties();
        try (InputStream in = Scaffold.class.getResourceAsStream("versions.properties")) {
            if (in == null) throw new IllegalStateException("versions.properties missing from the CLI jar");
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }

    private static String template(String resource) throws IOException {
        try (InputStream in = Scaffold.class.getResourceAsStream("scaffold/" + resource)) {
            if (in == null) throw new IllegalStateException("template " + resource + " missing from the CLI jar");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Keeps or drops the sections of a template (see the class comment) and removes their marker
     * lines. An unknown flag, a nested or unclosed section is a bug in the templates, so it throws.
     */
    static String sections(String template, Map<String, Boolean> flags) {
        StringBuilder out = new StringBuilder(template.length());
        String open = null;
        boolean keep = true;
        for (String line : template.split("(?<=\n)")) {
            Matcher m = SECTION.matcher(line.endsWith("\n") ? line.substring(0, line.length() - 1) : line);
            if (!m.matches()) {
                if (keep) out.append(line);
                continue;
            }
            String kind = m.group(1);
            String flag = m.group(2);
            if (kind.equals("/")) {
                if (!flag.equals(open)) throw new IllegalStateException("{{/" + flag + "}} closes no open section in a scaffold template");
                open = null;
                keep = true;
            } else {
                if (open != null) throw new IllegalStateException("{{" + kind + flag + "}} inside the section " + open + " of a scaffold template");
                Boolean on = flags.get(flag);
                if (on == null) throw new IllegalStateException("no flag " + flag + " for a section of a scaffold template");
                open = flag;
                keep = kind.equals("#") == on;
            }
        }
        if (open != null) throw new IllegalStateException("the section " + open + " of a scaffold template is not closed");
        return out.toString();
    }

    /** Replaces every {@code {{key}}}; an unknown key is a bug in the templates, so it throws. */
    static String fill(String template, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = values.get(m.group(1));
            if (v == null) throw new IllegalStateException("no value for {{" + m.group(1) + "}} in a scaffold template");
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }
}
