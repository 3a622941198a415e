package dev.tidemill.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Tidemill command line: {@code new} scaffolds a Maven project, {@code dev} runs an app and
 * restarts it when its classes change. A bad command line prints one line, {@code tidemill: ...},
 * and exits with status 2; a failure while working (a file that cannot be written) exits with 1.
 */
public final class Main {
    /** Exit status for a bad command line. */
    static final int USAGE = 2;

    static final String HELP = """
            usage: java -jar tidemill-cli.jar <command> [options]

            commands:
              new NAME [--package PKG] [--dir DIR] [--controllers]
                  a Maven project in DIR/NAME (DIR: the current directory): a pom importing tidemill-bom,
                  a Main with a hello route, a socket test and an in-memory test, a README.
                  NAME: lower-case letters, digits and single hyphens, starting with a letter (an artifact id);
                  PKG: the Java package (default com.example.NAME without hyphens), also the group id;
                  --controllers: the routes in a @Controller class (GreetingController) instead, and the pom
                  runs tidemill-processor on it (annotationProcessorPaths: JDK 23+ runs only named processors)
              dev --main CLASS --classes DIR [--classpath CP] [--watch DIR]... [--java-opt OPT]... [-- ARGS...]
                  runs CLASS from DIR (then CP) in a child JVM with Tidemill's JVM flags, and restarts it
                  when a file under DIR (or another --watch DIR) changes; recompile with your IDE or
                  `mvn compile`. Ctrl-C stops both.
              help
            """;

    private Main() {}

    /**
     * @param args the command line
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) System.exit(status);
    }

    /**
     * Runs a command.
     *
     * @param args the command line
     * @param out where results go
     * @param err where errors go
     * @return the exit status: 0, 1 (failed while working) or 2 (bad command line)
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            if (args.length == 0) throw new UsageException("no command given (new, dev, help)");
            List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
            switch (args[0]) {
                case "new" -> {
                    Path dir = Scaffold.fromArgs(rest).write();
                    out.println("created " + dir + "; next: cd " + dir + " && mvn test");
                }
                case "dev" -> {
                    try (DevRunner runner = DevRunner.fromArgs(rest, out)) {
                        Runtime.getRuntime().addShutdownHook(new Thread(runner::close, "tidemill-dev-stop"));
                        runner.run();
                    }
                }
                case "help", "-h", "--help" -> out.print(HELP);
                default -> throw new UsageException("unknown command: " + args[0] + " (new, dev, help)");
            }
            return 0;
        } catch (UsageException e) {
            err.println("tidemill: " + e.getMessage());
            return USAGE;
        } catch (UncheckedIOException e) {
            err.println("tidemill: " + e.getMessage());
            return 1;
        } catch (IOException e) {
            err.println("tidemill: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * Takes the value of an option at {@code i}.
     *
     * @return the value
     * @throws UsageException if there is none
     */
    static String value(List<String> args, int i) {
        if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
            throw new UsageException(args.get(i) + " needs a value");
        }
        return args.get(i + 1);
    }
}
