package dev.tidemill.examples;

import dev.tidemill.OidcLogin;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A local OpenID Connect provider for the demo ({@code ./tidemill demo --idp}) and the sign-in
 * tests: npm's {@code oidc-provider}, run by Node.js from the examples' build ({@code idp.mjs} next
 * to its {@code node_modules}), on 127.0.0.1, with one client (this app) and its development
 * sign-in page (any name, any password). Development only.
 */
final class LocalProvider implements AutoCloseable {
    /** The demo's client id at the local provider. */
    static final String CLIENT_ID = "tidemill-demo";

    private final Process node;
    private final OidcLogin login;

    private LocalProvider(Process node, OidcLogin login) {
        this.node = node;
        this.login = login;
    }

    /** @return where the examples' build put idp.mjs and its node_modules: {@code tidemill.demo.web}, else target/web */
    static Path webDirectory() {
        String set = System.getProperty("tidemill.demo.web");
        return Path.of(set != null ? set : "target/web").toAbsolutePath();
    }

    /**
     * Starts the provider and waits until it listens.
     *
     * @param appBase the app's origin, such as {@code http://127.0.0.1:8080}: its callback is {@code /auth/callback},
     *     and the provider's logout returns to {@code /board}
     * @param accessTokenSeconds how long the provider's access tokens last
     * @return the provider, and the app's sign-in settings for it
     */
    static LocalProvider start(String appBase, int accessTokenSeconds) throws IOException, InterruptedException {
        Path web = webDirectory();
        if (!Files.exists(web.resolve("idp.mjs")) || !Files.isDirectory(web.resolve("node_modules/oidc-provider"))) {
            throw new IOException("the local provider needs the examples' build (idp.mjs and node_modules/oidc-provider in " + web
                    + "): run ./tidemill build");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        String clientSecret = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        URI redirect = URI.create(appBase + "/auth/callback");
        Process node = new ProcessBuilder("node", "idp.mjs", Integer.toString(port), CLIENT_ID, clientSecret, redirect.toString(),
                appBase + "/board", Integer.toString(accessTokenSeconds)).directory(web.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        String line;
        try {
            line = ready.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            line = null;
        }
        String issuer = "http://127.0.0.1:" + port;
        if (line == null || !line.contains(issuer)) {
            node.destroyForcibly();
            throw new IOException("the local provider did not start (node idp.mjs in " + web + " said: " + line + ")");
        }
        OidcLogin login = OidcLogin.builder().issuer(issuer).clientId(CLIENT_ID).clientSecret(clientSecret).redirectUri(redirect)
                .postLogoutRedirectUri(URI.create(appBase + "/board")).scopes("openid", "profile").build();
        return new LocalProvider(node, login);
    }

    /** @return the app's sign-in settings for this provider */
    OidcLogin login() {
        return login;
    }

    /** @return the provider's issuer URL */
    String issuer() {
        return login.issuer();
    }

    @Override
    public void close() {
        node.destroy();
        try {
            if (!node.waitFor(5, TimeUnit.SECONDS)) node.destroyForcibly();
        } catch (InterruptedException e) {
            node.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
