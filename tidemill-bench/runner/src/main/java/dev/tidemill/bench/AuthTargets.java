package dev.tidemill.bench;

import dev.tidemill.bench.common.AuthContract;
import dev.tidemill.bench.targets.TidemillAuthApp;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The servers {@link AuthSuite} measures, and how each is started with the run's keys. */
final class AuthTargets {
    private AuthTargets() {}

    /** A target: how it is started given its port, I/O threads and the run's keys. */
    record Spec(String name, String kind, String verifier, Launch launch) {}

    @FunctionalInterface
    interface Launch {
        Target.Command at(int port, int ioThreads, URI jwksUri, Path jwksFile);
    }

    static Target target(Spec spec, URI jwksUri, Path jwksFile) {
        return new Target(spec.name(), spec.kind(), true, false, (port, threads, dir) -> spec.launch().at(port, threads, jwksUri, jwksFile));
    }

    /**
     * @param repoRoot where the peer is looked for
     * @param notFound collects what is not here and why
     * @return Tidemill (IO mode: handlers on the event loop, as Vert.x runs its own) and, when built, Vert.x Web's JWT handler
     */
    static List<Spec> all(Path repoRoot, List<String> notFound) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Spec> out = new ArrayList<>();
        out.add(new Spec("tidemill", "tidemill", "Tidemill's bearer tokens (nimbus-jose-jwt, verified-token cache), TIDEMILL_MODE=io",
                (port, threads, jwksUri, jwksFile) -> {
                    Map<String, String> env = new LinkedHashMap<>();
                    env.put("TIDEMILL_MODE", "io");
                    env.put("TIDEMILL_PORT", Integer.toString(port));
                    env.put("TIDEMILL_IO_THREADS", Integer.toString(threads));
                    env.put("TIDEMILL_LOOPS", Integer.toString(threads));
                    env.put("TIDEMILL_AUTH_ISSUER", AuthContract.ISSUER);
                    env.put("TIDEMILL_AUTH_AUDIENCE", AuthContract.AUDIENCE);
                    env.put("TIDEMILL_AUTH_JWKS_URI", jwksUri.toString());
                    return new Target.Command(TlsTargets.jvm(java, System.getProperty("java.class.path"), TidemillAuthApp.class.getName()), env);
                }));
        Path dir = repoRoot.resolve("tidemill-bench/peers/vertx-web");
        if (!Files.isRegularFile(dir.resolve("target/classpath.txt"))) {
            notFound.add("vertx-web: peer module vertx-web is not built (./tidemill bench auth builds it with -Ppeers)");
        } else {
            String cp = TlsTargets.peerClassPath(dir);
            out.add(new Spec("vertx-web", "peer", "Vert.x Web's JWTAuthHandler (vertx-auth-jwt), on its event loops",
                    (port, threads, jwksUri, jwksFile) -> {
                        List<String> argv = TlsTargets.jvm(java, cp, "dev.tidemill.bench.peers.vertxweb.AuthMain");
                        argv.addAll(List.of(Integer.toString(port), Integer.toString(threads), jwksFile.toString()));
                        return new Target.Command(argv, Map.of());
                    }));
        }
        notFound.add("EdDSA: Tidemill's bearer tokens allow RS, PS and ES algorithms only (nimbus verifies Ed25519 only with "
                + "Google Tink, an optional dependency the registry here does not list)");
        notFound.add("helidon: Helidon SE's security (JWT provider) is not measured: the registry here serves Helidon's security "
                + "modules at 4.2.0 only, not at 4.5.0, the Helidon peer's version");
        return out;
    }

    static List<Spec> select(List<Spec> all, List<String> names) {
        if (names.isEmpty()) return all;
        return names.stream().map(n -> all.stream().filter(t -> t.name().equals(n)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown target " + n + "; found: " + String.join(", ", all.stream().map(Spec::name).toList()))))
                .toList();
    }
}
