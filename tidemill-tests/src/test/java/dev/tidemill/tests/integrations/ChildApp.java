package dev.tidemill.tests.integrations;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@link MinimalApp} in a child JVM: on a class path that is this test's minus the optional
 * integrations' jars, as a hello-world app on tidemill-core alone has it, or with the core and its
 * dependencies on the module path. Close it to kill the child.
 */
final class ChildApp implements AutoCloseable {
    /** Every optional integration's jars, by a part of their file name. */
    static final List<String> ALL = List.of("micrometer-", "brotli4j", "native-linux-x86_64", "zstd-jni",
            "netty-tcnative", "hibernate-validator", "jakarta.validation", "swagger-ui", "nimbus-jose-jwt");

    private final Process process;
    final int port;
    final List<String> output = new CopyOnWriteArrayList<>();
    private final CountDownLatch listening = new CountDownLatch(1);

    private ChildApp(Process process, int port) {
        this.process = process;
        this.port = port;
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    output.add(line);
                    if (line.startsWith("listening on ")) listening.countDown();
                }
            } catch (IOException e) {
                output.add("output failed: " + e);
            }
        });
    }

    /**
     * @param env {@code TIDEMILL_*} variables besides the port
     * @param args {@link MinimalApp}'s arguments
     * @return the child, started (not yet listening)
     */
    static ChildApp withoutOptionalJars(Map<String, String> env, String... args) throws IOException {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> ALL.stream().noneMatch(new File(entry).getName()::contains))
                .collect(Collectors.joining(File.pathSeparator));
        return start(List.of("-cp", classPath), env, args);
    }

    /** The jars of the core and of every module it requires (not {@code static}), by the start of their file name. */
    static final List<String> CORE_MODULES = List.of("tidemill-core-", "netty-buffer-", "netty-codec-", "netty-common-",
            "netty-handler-", "netty-resolver-", "netty-transport-", "jackson-core-3", "jackson-databind-3",
            "jackson-annotations-", "jctools-core-", "slf4j-api-", "slf4j-simple-", "dec-", "jzlib-");

    /**
     * @param extraJars the starts of the file names of more jars to put on the module path
     * @param addModules modules to resolve besides {@code dev.tidemill} (what an app's {@code requires} would)
     * @param env {@code TIDEMILL_*} variables besides the port
     * @return the child, started with the core and its required modules (and {@code extraJars}) on the module
     *     path, the app's classes on the class path
     */
    static ChildApp onModulePath(List<String> extraJars, List<String> addModules, Map<String, String> env) throws IOException {
        List<String> wanted = new ArrayList<>(CORE_MODULES);
        wanted.addAll(extraJars);
        List<String> modulePath = new ArrayList<>();
        String appClasses = null;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = new File(entry).getName();
            if (entry.endsWith("test-classes")) appClasses = entry;
            else if (name.endsWith(".jar") && wanted.stream().anyMatch(name::startsWith)) modulePath.add(entry);
        }
        assertThat(appClasses).as("the suite's own classes on the class path").isNotNull();
        List<String> modules = new ArrayList<>(List.of("dev.tidemill"));
        modules.addAll(addModules);
        return start(List.of("-p", String.join(File.pathSeparator, modulePath), "--add-modules", String.join(",", modules),
                "-cp", appClasses), env);
    }

    private static ChildApp start(List<String> paths, Map<String, String> env, String... args) throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String java = ProcessHandle.current().info().command().orElseThrow();
        List<String> command = new ArrayList<>(List.of(java, "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED"));
        command.addAll(paths);
        command.add(MinimalApp.class.getName());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("TIDEMILL_"));
        pb.environment().put("TIDEMILL_PORT", Integer.toString(port));
        pb.environment().putAll(env);
        return new ChildApp(pb.start(), port);
    }

    /** The filter has something to take away: this JVM has the jars the child goes without. */
    static void assertParentHasThem() {
        assertThat(System.getProperty("java.class.path")).contains("micrometer-core", "brotli4j", "zstd-jni",
                "hibernate-validator", "swagger-ui", "nimbus-jose-jwt");
    }

    ChildApp awaitListening() throws InterruptedException {
        boolean up = listening.await(30, TimeUnit.SECONDS);
        assertThat(up).as("listening; output %s", output).isTrue();
        return this;
    }

    /** @return the child's exit status, once it ended (within 30 s) */
    int awaitExit() throws InterruptedException {
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("exited; output %s", output).isTrue();
        int status = process.exitValue();
        Thread.sleep(200); // the reader drains what the child wrote last
        return status;
    }

    /** @return everything the child wrote so far, one line each */
    String text() {
        return String.join("\n", output);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
