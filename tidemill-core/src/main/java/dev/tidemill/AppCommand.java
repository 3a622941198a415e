package dev.tidemill;

import java.io.PrintStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The subcommands of {@link Tidemill#run(String[])}: what runs, what it prints, and the exit
 * status, returned rather than exited so that tests can see it. Tables go to stdout, errors to
 * stderr as one line.
 */
final class AppCommand {
    /** Exit status of a bad command line, as sysexits' EX_USAGE is for many tools and ours is for the launcher. */
    static final int USAGE = 2;

    static final String HELP = """
            usage: <app> [command]

            commands:
              serve      start the server and run until SIGTERM or SIGINT (the default)
              routes     print every route: method, pattern, execution mode, parameters
              openapi    print the OpenAPI 3.1 document (JSON) without starting a server
              settings   print every TIDEMILL_* variable, its default and whether it is set (never its value)
              apikey NAME [SCOPE ...]
                         make an API key for NAME: prints the key (give it to the client; it is not kept)
                         and the line for the keys file (TIDEMILL_API_KEYS_FILE), which holds only its digest
              --help     this text

            Settings come from TIDEMILL_* environment variables; see docs/cli.md.
            """;

    private AppCommand() {}

    /**
     * @param app the app, its routes registered
     * @param args the command line
     * @param out where tables and the document go
     * @param err where a bad command line is reported
     * @param started called once {@code serve} listens
     * @return the exit status: 0, or {@link #USAGE}
     */
    static int execute(Tidemill app, String[] args, PrintStream out, PrintStream err, Consumer<Server> started) {
        String command = args.length == 0 ? "serve" : args[0];
        if (command.equals("apikey")) return apiKey(args, out, err);
        if (args.length > 1) {
            err.println("tidemill: '" + command + "' takes no arguments (got " + (args.length - 1) + " more); try --help");
            return USAGE;
        }
        switch (command) {
            case "serve" -> app.run(started);
            case "routes" -> out.print(routes(app));
            case "openapi" -> {
                out.print(new String(app.openApiDocument(), StandardCharsets.UTF_8));
                out.println();
            }
            case "settings" -> out.print(settings(System.getenv()));
            case "--help", "-h", "help" -> out.print(HELP);
            default -> {
                // The argument is the user's own typing, but it could be anything: print it only if it is short and plain.
                String shown = command.length() <= 40 && command.chars().allMatch(c -> c > 0x20 && c < 0x7f) ? "'" + command + "'" : "argument";
                err.println("tidemill: unknown command " + shown + "; expected serve, routes, openapi, settings, apikey or --help");
                return USAGE;
            }
        }
        out.flush();
        return 0;
    }

    /** {@code apikey NAME [SCOPE ...]}: a new key on stdout, then its keys-file line. */
    private static int apiKey(String[] args, PrintStream out, PrintStream err) {
        if (args.length < 2) {
            err.println("tidemill: apikey needs the name of who will hold the key: apikey NAME [SCOPE ...]");
            return USAGE;
        }
        ApiKeys.Generated made;
        try {
            for (int i = 2; i < args.length; i++) new Requirement.Scope(args[i]);
            made = ApiKeys.generate(args[1], java.util.Set.of(java.util.Arrays.copyOfRange(args, 2, args.length)));
        } catch (IllegalArgumentException e) {
            err.println("tidemill: apikey: " + e.getMessage());
            return USAGE;
        }
        out.println("key:  " + made.key());
        out.println("line: " + made.entry().line());
        out.println("Give the key to " + args[1] + " now: it is not stored anywhere. Add the line to the file "
                + "TIDEMILL_API_KEYS_FILE names; a client sends 'Authorization: ApiKey <key>'.");
        out.flush();
        return 0;
    }

    /** @return one row per route: method, pattern, the mode it runs in, its parameters */
    static String routes(Tidemill app) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"METHOD", "PATTERN", "MODE", "PARAMS"});
        for (Route r : app.routes()) {
            ExecutionMode mode = r.mode().or(() -> r.group().flatMap(RouteGroup::mode)).orElse(app.config().executionMode());
            List<String> params = new ArrayList<>();
            for (Param<?> p : r.params()) params.add(describe(p));
            r.body().ifPresent(b -> params.add("body:" + b.getSimpleName()
                    + (r.bodyMediaType().orElse("").endsWith("urlencoded") ? " (form)"
                            : r.bodyMediaType().orElse("").startsWith("multipart/") ? " (multipart)" : "")));
            String kind = r.operational() ? " (operational)" : "";
            // AUTO: where it starts; a running server's Server.routeModes() and /metrics say where it is now
            String shown = mode == ExecutionMode.AUTO ? "auto (starts " + dev.tidemill.internal.exchange.AutoMode.start().name().toLowerCase(Locale.ROOT)
                    + ", then measured)" : mode.name().toLowerCase(Locale.ROOT);
            rows.add(new String[] {r.method(), r.pattern(), shown + kind,
                    params.isEmpty() ? "-" : String.join(" ", params)});
        }
        return table(rows);
    }

    private static String describe(Param<?> p) {
        String type = p.type().javaType().isEnum() ? p.type().javaType().getSimpleName() : p.type().schemaFormat()
                .orElse(p.type().schemaType());
        String where = p.location() == Param.Location.QUERY ? "" : p.location().label() + " ";
        return where + switch (p.shape()) {
            case REQUIRED -> p.name() + ":" + type;
            case OPTIONAL -> p.name() + ":" + type + "?";
            case DEFAULTED -> p.name() + ":" + type + "=" + p.defaultValue().orElseThrow();
            case LIST -> p.name() + ":" + type + "[]";
        };
    }

    /**
     * @param env the environment, read only for which names are present
     * @return every variable, what it accepts, its default and whether {@code env} sets it
     */
    static String settings(Map<String, String> env) {
        Map<String, Object> defaults = defaults();
        Map<String, String> accepts = EnvironmentConfig.variables();
        Map<String, String> fieldOf = new LinkedHashMap<>();
        EnvironmentConfig.variableByField().forEach((field, variable) -> fieldOf.put(variable, field));
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"VARIABLE", "DEFAULT", "SET", "ACCEPTS"});
        accepts.forEach((name, expects) -> rows.add(new String[] {name, format(defaults.get(fieldOf.get(name))),
                env.containsKey(name) ? "set" : "-", expects}));
        StringBuilder b = new StringBuilder(table(rows));
        for (String name : env.keySet().stream().sorted().toList()) {
            if (name.startsWith("TIDEMILL_") && !accepts.containsKey(name) && !name.equals("TIDEMILL_JAVA_OPTS")) {
                b.append("unknown: ").append(name).append(" is set but is not a Tidemill setting\n");
            }
        }
        return b.toString();
    }

    /** Every component of the config records by name: the defaults, read from the one place they are defined. */
    private static Map<String, Object> defaults() {
        Map<String, Object> out = new LinkedHashMap<>();
        Config c = Config.defaults();
        for (Record r : new Record[] {c, c.limits(), c.timeouts(), c.compression()}) {
            for (RecordComponent rc : r.getClass().getRecordComponents()) {
                try {
                    out.putIfAbsent(rc.getName(), rc.getAccessor().invoke(r));
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }

    /** In the syntax the environment reader takes: {@code 30s}, {@code 250ms}, {@code loop}. */
    private static String format(Object value) {
        if (value == null) return "-";
        if (value instanceof Duration d) {
            if (d.toMillis() % 1000 != 0) return d.toMillis() + "ms";
            long s = d.toSeconds();
            if (s % 3600 == 0 && s > 0) return s / 3600 + "h";
            if (s % 60 == 0 && s > 0) return s / 60 + "m";
            return s + "s";
        }
        if (value instanceof Enum<?> e) return e.name().toLowerCase(Locale.ROOT);
        if (value instanceof String s) return s.isEmpty() ? "(empty)" : s;
        return value.toString();
    }

    private static String table(List<String[]> rows) {
        int[] width = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length - 1; i++) width[i] = Math.max(width[i], row[i].length());
        }
        StringBuilder b = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                b.append(row[i]);
                if (i < row.length - 1) b.append(" ".repeat(width[i] - row[i].length() + 2));
            }
            b.append('\n');
        }
        return b.toString();
    }
}
