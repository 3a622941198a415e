package dev.tidemill.internal.auth;

import com.nimbusds.jose.util.JSONObjectUtils;
import dev.tidemill.OidcLogin;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The provider's side of a sign-in, over the JDK's HTTP client on its own threads (never an event
 * loop): its discovery document, fetched once it is first needed and kept (a failed fetch is tried
 * again by the next sign-in), and its token endpoint, for codes and refreshes. The client
 * authenticates with HTTP Basic (RFC 6749 2.3.1) when it has a secret, else as a public client.
 */
final class OidcProvider implements AutoCloseable {
    /** Connect timeout and whole-exchange timeout of each call to the provider. */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    /** The most bytes a discovery document or token response may have. */
    private static final int MAX_BYTES = 256 * 1024;

    /**
     * The endpoints a sign-in uses, from OpenID Connect Discovery 1.0 section 3.
     *
     * @param authorization where the browser is sent to sign in
     * @param token where codes and refresh tokens are exchanged
     * @param endSession RP-initiated logout, or null when the provider offers none
     * @param issInResponse whether the provider sends {@code iss} with every authorization response (RFC 9207 3)
     */
    record Endpoints(URI authorization, URI token, URI endSession, boolean issInResponse) { }

    /** A refusal by the token endpoint ({@code error} of RFC 6749 5.2), or a call that failed. */
    static final class Refused extends RuntimeException {
        final String error;

        Refused(String error, String message) {
            super(message);
            this.error = error;
        }
    }

    private final OidcLogin settings;
    private final ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "tidemill-oidc");
        t.setDaemon(true);
        return t;
    });
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).executor(threads)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private CompletableFuture<Endpoints> endpoints; // guarded by this

    OidcProvider(OidcLogin settings) {
        this.settings = settings;
    }

    /** @return the provider's endpoints: fetched once, shared by every sign-in that waits for them */
    synchronized CompletionStage<Endpoints> endpoints() {
        if (endpoints == null || endpoints.isCompletedExceptionally()) endpoints = discover();
        return endpoints;
    }

    /** @return the endpoints when they are known already, else null */
    synchronized Endpoints known() {
        return endpoints != null && endpoints.isDone() && !endpoints.isCompletedExceptionally() ? endpoints.join() : null;
    }

    private CompletableFuture<Endpoints> discover() {
        String issuer = settings.issuer();
        String base = issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer;
        HttpRequest get = HttpRequest.newBuilder(URI.create(base + "/.well-known/openid-configuration")).timeout(TIMEOUT)
                .header("Accept", "application/json").GET().build();
        return http.sendAsync(get, HttpResponse.BodyHandlers.ofByteArray()).thenApply(r -> {
            Map<String, Object> doc = json(r, "the discovery document");
            if (r.statusCode() != 200) throw new Refused("discovery", "the discovery document answered " + r.statusCode());
            if (!issuer.equals(doc.get("issuer"))) {
                throw new Refused("discovery", "the discovery document names issuer " + doc.get("issuer") + ", not " + issuer);
            }
            Object end = doc.get("end_session_endpoint");
            return new Endpoints(uri(doc, "authorization_endpoint"), uri(doc, "token_endpoint"),
                    end instanceof String s ? URI.create(s) : null,
                    Boolean.TRUE.equals(doc.get("authorization_response_iss_parameter_supported")));
        });
    }

    /** @return the tokens for an authorization code (RFC 6749 4.1.3, with RFC 7636 4.5's verifier) */
    CompletionStage<Map<String, Object>> exchange(String code, String verifier) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", settings.redirectUri().toString());
        form.put("code_verifier", verifier);
        return tokenCall(form);
    }

    /** @return new tokens for a refresh token (RFC 6749 6) */
    CompletionStage<Map<String, Object>> refresh(String refreshToken) {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", refreshToken);
        return tokenCall(form);
    }

    private CompletionStage<Map<String, Object>> tokenCall(Map<String, String> form) {
        return endpoints().thenCompose(e -> {
            HttpRequest.Builder post = HttpRequest.newBuilder(e.token()).timeout(TIMEOUT)
                    .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json");
            if (settings.clientSecret().isPresent()) {
                String pair = encode(settings.clientId()) + ":" + encode(settings.clientSecret().get());
                post.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
            } else {
                form.put("client_id", settings.clientId());
            }
            return http.sendAsync(post.POST(HttpRequest.BodyPublishers.ofString(formBody(form))).build(), HttpResponse.BodyHandlers.ofByteArray());
        }).thenApply(r -> {
            Map<String, Object> body = json(r, "the token endpoint's answer");
            if (r.statusCode() != 200) {
                Object error = body.get("error");
                throw new Refused(error instanceof String s ? s : "http_" + r.statusCode(), "the token endpoint answered " + r.statusCode()
                        + (error != null ? " " + Authenticator.printable(String.valueOf(error)) : ""));
            }
            if (!(body.get("access_token") instanceof String)) throw new Refused("no_access_token", "the token endpoint sent no access_token");
            if (!"bearer".equalsIgnoreCase(String.valueOf(body.get("token_type")))) {
                throw new Refused("token_type", "the token endpoint sent token_type " + body.get("token_type") + ", not Bearer");
            }
            return body;
        });
    }

    /** @return the tokens a token response carries; the refresh and ID tokens kept from {@code before} when it sent none */
    static ProviderTokens tokens(Map<String, Object> body, ProviderTokens before) {
        // Refreshed a little before it expires, so a request does not carry a token that lapses on its
        // way: 10 s early, or a quarter of the lifetime early for tokens that live under 40 s.
        Instant expires = body.get("expires_in") instanceof Number n
                ? Instant.now().plusSeconds(n.longValue() - Math.min(ProviderTokens.EARLY_SECONDS, n.longValue() / 4)) : null;
        String refresh = body.get("refresh_token") instanceof String s ? s : before != null ? before.refresh() : null;
        String id = body.get("id_token") instanceof String s ? s : before != null ? before.idToken() : null;
        return new ProviderTokens((String) body.get("access_token"), refresh, id, expires);
    }

    private static Map<String, Object> json(HttpResponse<byte[]> r, String what) {
        if (r.body().length > MAX_BYTES) throw new Refused("too_large", what + " is over " + MAX_BYTES + " bytes");
        try {
            return JSONObjectUtils.parse(new String(r.body(), StandardCharsets.UTF_8));
        } catch (java.text.ParseException e) {
            throw new Refused("not_json", what + " (" + r.statusCode() + ") is not a JSON object");
        }
    }

    private static URI uri(Map<String, Object> doc, String name) {
        if (!(doc.get(name) instanceof String s)) throw new Refused("discovery", "the discovery document has no " + name);
        return URI.create(s);
    }

    static String formBody(Map<String, String> form) {
        StringBuilder b = new StringBuilder();
        form.forEach((k, v) -> b.append(b.isEmpty() ? "" : "&").append(encode(k)).append('=').append(encode(v)));
        return b.toString();
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        http.shutdownNow();
        threads.shutdownNow();
    }
}
