package dev.tidemill.internal.assets;

import dev.tidemill.Handler;
import dev.tidemill.Problem;
import dev.tidemill.Request;
import dev.tidemill.Response;
import dev.tidemill.internal.codec.AcceptEncoding;
import dev.tidemill.internal.codec.AcceptEncoding.Choice;
import dev.tidemill.internal.codec.ContentEncoding;
import dev.tidemill.internal.codec.ProblemJson;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Answers {@code GET {prefix}/{*path}} from a catalogue: the hashed name with the asset (200, 206,
 * 304, 416), the logical name with a 307 to the hashed one, anything else 404. Never blocks: every
 * answer is a lookup and a response prepared at start, except a large file's, which opens the file
 * when the reply is built; so the route runs on the event loop ({@code ExecutionMode.IO}).
 *
 * <p>The order of the checks is RFC 9110 13.2.2's for GET and HEAD: the representation is chosen
 * from {@code Accept-Encoding} first (each has its own entity-tag), then {@code If-None-Match} or,
 * without it, {@code If-Modified-Since} (304), then {@code Range} with {@code If-Range} (206/416),
 * served only from the identity form of a GET.
 */
public final class AssetHandler implements Handler {
    /** The {@code Cache-Control} of a hashed name: its bytes never change, so a year, and no revalidation. */
    static final String IMMUTABLE = "public, max-age=31536000, immutable";
    /** The {@code Cache-Control} of the redirect from a logical name: it changes with every deploy. */
    static final String REDIRECT_CACHE = "no-cache";
    private static final String CATCH_ALL = "{*path}";

    private static final Response NOT_FOUND = problem(Problem.of(404, "Not Found", "no such asset"));
    private static final Response NOT_ACCEPTABLE = problem(Problem.of(406, "Not Acceptable",
            "Accept-Encoding refuses identity and every coding this asset is kept in")).header("Vary", "Accept-Encoding");

    /** One asset's prepared answers, indexed by {@link Choice#ordinal()} (BR, ZSTD, GZIP, IDENTITY). */
    private record Served(Asset asset, Response[] ok, Response[] notModified, String[] etags, String lastModified) {
        boolean has(Choice c) {
            return ok[c.ordinal()] != null;
        }
    }

    private final AssetCatalogue catalogue;
    private final boolean dotfiles;
    private final Map<String, Served> byHashedName = new HashMap<>();
    /** The path prefix the route was registered at, percent-encoded; null until then. */
    private volatile String mount;
    private volatile int skipSlashes;

    /**
     * @param catalogue the assets
     * @param dotfiles whether names with a segment starting with {@code .} are served
     */
    public AssetHandler(AssetCatalogue catalogue, boolean dotfiles) {
        this.catalogue = catalogue;
        this.dotfiles = dotfiles;
        for (Asset a : catalogue.assets()) byHashedName.put(a.hashedName(), prepare(a));
    }

    /** @return the pattern segment to register the route with, after the prefix */
    public static String catchAll() {
        return "/" + CATCH_ALL;
    }

    /** @throws IllegalStateException if the route is registered already */
    public synchronized void checkNotMounted() {
        if (mount != null) throw new IllegalStateException("these static assets are registered already, at " + mount);
    }

    /**
     * Records where the route was registered; once only, since {@link #href} must have one answer.
     *
     * @param pattern the route's full pattern, ending with {@link #catchAll()}
     * @throws IllegalStateException if it was registered already
     * @throws IllegalArgumentException if the prefix has a parameter (an href could not be written)
     */
    public synchronized void mount(String pattern) {
        checkNotMounted();
        String prefix = pattern.substring(0, pattern.length() - catchAll().length());
        if (prefix.indexOf('{') >= 0) {
            throw new IllegalArgumentException("static assets cannot be registered under a path parameter: " + pattern);
        }
        skipSlashes = (int) prefix.chars().filter(c -> c == '/').count() + 1;
        mount = encode(prefix, true);
    }

    /**
     * @param name a logical name, e.g. {@code css/app.css}
     * @return the path of its hashed name, e.g. {@code /assets/css/app.3f2a9c01bd.css}, percent-encoded
     * @throws IllegalArgumentException if there is no such asset
     * @throws IllegalStateException if the route is not registered yet
     */
    public String href(String name) {
        String m = mount;
        if (m == null) throw new IllegalStateException("register the assets first (Routes.assets): their path is not known yet");
        String hashed = catalogue.hashedName(name);
        if (hashed == null) throw new IllegalArgumentException("no asset named " + name);
        return m + "/" + encode(hashed, false);
    }

    @Override
    public Object handle(Request request) {
        String key = AssetPath.requestKey(request.path(), skipSlashes, dotfiles);
        if (key == null) return NOT_FOUND;
        Served s = byHashedName.get(key);
        if (s == null) {
            String hashed = catalogue.hashedName(key);
            if (hashed == null) return NOT_FOUND;
            return Response.status(307).header("Location", mount + "/" + encode(hashed, false)).header("Cache-Control", REDIRECT_CACHE);
        }
        AcceptEncoding.Result n = AcceptEncoding.negotiate(request.headers("Accept-Encoding"), s.has(Choice.BR),
                s.has(Choice.ZSTD), s.has(Choice.GZIP));
        if (n.choice() == Choice.NONE_ACCEPTABLE) return NOT_ACCEPTABLE;
        int rep = n.choice().ordinal();
        Asset a = s.asset();
        if (Preconditions.notModified(request.headers("If-None-Match"), request.headers("If-Modified-Since"), s.etags()[rep],
                a.lastModified())) {
            return s.notModified()[rep];
        }
        if (n.choice() == Choice.IDENTITY && request.method().equals("GET")) {
            Optional<String> range = request.header("Range");
            if (range.isPresent() && request.headers("Range").size() == 1) {
                Optional<String> ifRange = request.header("If-Range");
                if (ifRange.isEmpty() || Preconditions.rangeStillValid(ifRange.get(), a.etag(), a.lastModified())) {
                    ByteRange r = ByteRange.parse(range.get(), a.length());
                    if (r.kind() == ByteRange.Kind.SINGLE) return partial(s, r);
                    if (r.kind() == ByteRange.Kind.UNSATISFIABLE) return unsatisfiable(a);
                }
            }
        }
        return s.ok()[rep];
    }

    private static Response partial(Served s, ByteRange r) {
        Asset a = s.asset();
        Response p = common(206, a.etag(), s.lastModified(), a.variants().length > 0).header("Accept-Ranges", "bytes")
                .header("Content-Range", "bytes " + r.first() + "-" + r.last() + "/" + a.length());
        if (a.bytes() != null) {
            return p.bytes(Arrays.copyOfRange(a.bytes(), (int) r.first(), (int) r.last() + 1), a.contentType());
        }
        return p.file(a.file(), r.first(), r.length(), a.contentType());
    }

    private static Response unsatisfiable(Asset a) {
        return problem(Problem.of(416, "Range Not Satisfiable", "the asset has " + a.length() + " bytes"))
                .header("Content-Range", "bytes */" + a.length()).header("Accept-Ranges", "bytes");
    }

    private static Served prepare(Asset a) {
        int slots = Choice.values().length;
        Response[] ok = new Response[slots];
        Response[] notModified = new Response[slots];
        String[] etags = new String[slots];
        String lastModified = Preconditions.HTTP_DATE.format(a.lastModified());
        boolean varies = a.variants().length > 0;
        int id = Choice.IDENTITY.ordinal();
        etags[id] = a.etag();
        notModified[id] = common(304, a.etag(), lastModified, varies).header("Accept-Ranges", "bytes");
        Response head = common(200, a.etag(), lastModified, varies).header("Accept-Ranges", "bytes");
        ok[id] = a.bytes() != null ? head.bytes(a.bytes(), a.contentType()) : head.file(a.file(), 0, a.length(), a.contentType());
        for (Asset.Variant v : a.variants()) {
            int i = v.coding().ordinal();
            etags[i] = v.etag();
            // A 304 names no Content-Encoding: it has no content (RFC 9110 15.4.5 lists what it repeats).
            notModified[i] = common(304, v.etag(), lastModified, true);
            ok[i] = common(200, v.etag(), lastModified, true).header("Content-Encoding", ContentEncoding.token(v.coding()))
                    .bytes(v.bytes(), a.contentType());
        }
        return new Served(a, ok, notModified, etags, lastModified);
    }

    private static Response common(int status, String etag, String lastModified, boolean varies) {
        Response r = Response.status(status).header("Cache-Control", IMMUTABLE).header("ETag", etag).header("Last-Modified", lastModified)
                .header("X-Content-Type-Options", "nosniff");
        return varies ? r.header("Vary", "Accept-Encoding") : r;
    }

    private static Response problem(Problem p) {
        return Response.status(p.status()).header("X-Content-Type-Options", "nosniff").bytes(ProblemJson.render(p), ProblemJson.CONTENT_TYPE);
    }

    /**
     * Percent-encodes a path for a URL: everything but {@code A-Z a-z 0-9 - . _ ~} and the
     * {@code /} between segments, as UTF-8.
     *
     * @param keepPercent keep {@code %} as it is (a route prefix may be written encoded already)
     */
    static String encode(String path, boolean keepPercent) {
        StringBuilder out = null;
        byte[] utf8 = path.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        for (int i = 0; i < utf8.length; i++) {
            int b = utf8[i] & 0xff;
            boolean plain = b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '.'
                    || b == '_' || b == '~' || b == '/' || keepPercent && b == '%';
            if (plain && out == null) continue;
            if (out == null) out = new StringBuilder(utf8.length + 16).append(path, 0, i); // the bytes before i are ASCII
            if (plain) out.append((char) b);
            else out.append('%').append(Character.toUpperCase(Character.forDigit(b >> 4, 16)))
                    .append(Character.toUpperCase(Character.forDigit(b & 15, 16)));
        }
        return out == null ? path : out.toString();
    }

    /** @return the assets' logical names, for {@code StaticAssets.names()} */
    public List<String> names() {
        return List.copyOf(catalogue.names());
    }
}
