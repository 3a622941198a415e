package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link Tidemill#run(String[])}'s commands, through the package-private {@link AppCommand#execute}
 * that returns the exit status instead of exiting: what each prints, on which stream, and the
 * status 2 of a bad command line.
 */
class AppCommandTest {
    enum Size { S, M, L }

    static final Param<Integer> ID = Param.path("id", ParamType.INT);
    static final Param<Integer> LIMIT = Param.query("limit", ParamType.INT).withDefault(10);
    static final Param<Optional<Size>> SIZE = Param.query("size", ParamType.enumOf(Size.class)).optional();
    static final Param<List<String>> TAG = Param.queryList("tag", ParamType.STRING);

    record Note(String text) {}

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private static Tidemill app() {
        Tidemill app = Tidemill.create(Config.builder().port(0).build());
        app.get("/items/{id}", req -> "x").params(ID, LIMIT, SIZE, TAG);
        app.post("/notes", req -> "x").body(Note.class).mode(ExecutionMode.VIRTUAL);
        app.group("/io").mode(ExecutionMode.IO).get("/fast", req -> "x");
        app.get("/healthz", req -> "ok").operational(true);
        return app;
    }

    private int run(Tidemill app, String... args) {
        return AppCommand.execute(app, args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), server -> { throw new AssertionError("must not serve"); });
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void routesPrintsMethodPatternModeAndParameters() {
        Tidemill app = app();
        app.get("/chosen", req -> "x").mode(ExecutionMode.AUTO);
        assertThat(run(app, "routes")).isZero();
        List<String> lines = out().lines().toList();
        assertThat(lines.get(0)).matches("METHOD +PATTERN +MODE +PARAMS");
        assertThat(lines.get(1)).matches("GET +/items/\\{id} +loop +path id:int32 limit:int32=10 size:Size\\? tag:string\\[]");
        assertThat(lines.get(2)).matches("POST +/notes +virtual +body:Note");
        assertThat(lines.get(3)).matches("GET +/io/fast +io +-");
        assertThat(lines.get(4)).matches("GET +/healthz +loop \\(operational\\) +-");
        assertThat(lines.get(5)).matches("GET +/chosen +auto \\(starts virtual, then measured\\) +-");
        assertThat(err()).isEmpty();
    }

    @Test
    void openapiPrintsTheDocumentWithoutStartingAServer() {
        Tidemill app = app();
        assertThat(run(app, "openapi")).isZero();
        JsonNode doc = JsonMapper.builder().build().readTree(out());
        assertThat(doc.get("openapi").asString()).isEqualTo("3.1.0");
        assertThat(doc.at("/info/title").asString()).isEqualTo(OpenApi.DEFAULTS.title());
        assertThat(doc.get("paths").propertyNames()).containsExactly("/items/{id}", "/notes", "/io/fast");
        assertThat(doc.at("/paths/~1notes/post/requestBody/content/application~1json/schema/$ref").asString())
                .isEqualTo("#/components/schemas/Note");
        app.get("/later", req -> "still registrable: nothing started"); // throws if the app had started
    }

    @Test
    void openapiUsesTheAppsOwnSettings() {
        Tidemill app = app().openApi(OpenApi.builder().title("Notes").version("9.9").ui(false).build());
        assertThat(run(app, "openapi")).isZero();
        JsonNode doc = JsonMapper.builder().build().readTree(out());
        assertThat(doc.at("/info/title").asString()).isEqualTo("Notes");
        assertThat(doc.at("/info/version").asString()).isEqualTo("9.9");
        assertThat(doc.get("paths").has("/openapi.json")).as("its own route is operational").isFalse();
    }

    @Test
    void settingsListsEveryVariableWithItsDefaultAndWhetherItIsSetNeverItsValue() {
        String table = AppCommand.settings(Map.of("TIDEMILL_PORT", "secret-looking-9090", "TIDEMILL_TYPO", "x",
                "TIDEMILL_JAVA_OPTS", "-Xmx1g"));
        List<String> lines = table.lines().toList();
        assertThat(lines.get(0)).matches("VARIABLE +DEFAULT +SET +ACCEPTS");
        for (String variable : EnvironmentConfig.variables().keySet()) {
            assertThat(table).as("a row for %s", variable).containsPattern("(?m)^" + variable + " ");
        }
        assertThat(lines).anyMatch(l -> l.matches("TIDEMILL_PORT +8080 +set +.*"));
        assertThat(lines).anyMatch(l -> l.matches("TIDEMILL_HOST +127\\.0\\.0\\.1 +- +.*"));
        assertThat(lines).anyMatch(l -> l.matches("TIDEMILL_MODE +loop +- +.*"));
        assertThat(lines).anyMatch(l -> l.matches("TIDEMILL_REQUEST_TIMEOUT +30s +- +.*"));
        assertThat(lines).anyMatch(l -> l.matches("TIDEMILL_MAX_BODY +" + Limits.DEFAULTS.maxBodyBytes() + " +- +.*"));
        assertThat(lines).anyMatch(l -> l.matches("TIDEMILL_COMPRESSION +true +- +.*"));
        assertThat(table).contains("unknown: TIDEMILL_TYPO is set but is not a Tidemill setting");
        assertThat(table).doesNotContain("secret-looking").doesNotContain("TIDEMILL_JAVA_OPTS").doesNotContain("-Xmx1g");
    }

    @Test
    void settingsThroughRunPrintsTheTable() {
        assertThat(run(app(), "settings")).isZero();
        assertThat(out()).startsWith("VARIABLE").contains("TIDEMILL_SHUTDOWN_GRACE");
    }

    @Test
    void helpPrintsTheCommandsOnStdout() {
        for (String flag : new String[] {"--help", "-h", "help"}) {
            out.reset();
            assertThat(run(app(), flag)).isZero();
            assertThat(out()).contains("serve", "routes", "openapi", "settings", "--help");
        }
        assertThat(err()).isEmpty();
    }

    @Test
    void aBadCommandLineIsOneLineOnStderrAndStatus2() {
        assertThat(run(app(), "deploy")).isEqualTo(2);
        assertThat(err()).isEqualTo("tidemill: unknown command 'deploy'; expected serve, routes, openapi, settings, apikey or --help"
                + System.lineSeparator());
        assertThat(out()).isEmpty();
        err.reset();
        assertThat(run(app(), "routes", "extra")).isEqualTo(2);
        assertThat(err().lines()).hasSize(1).first().asString().contains("takes no arguments");
        err.reset();
        assertThat(run(app(), "\u001b[31mx")).isEqualTo(2);
        assertThat(err()).doesNotContain("\u001b").contains("unknown command argument");
    }

    @Test
    void apikeyPrintsANewKeyAndItsDigestLineAndTheKeyMatchesTheLine() {
        assertThat(run(app(), "apikey", "billing", "invoices:read", "invoices:write")).isZero();
        List<String> lines = out().lines().toList();
        String key = lines.get(0).substring("key:  ".length());
        String line = lines.get(1).substring("line: ".length());
        assertThat(key).startsWith(ApiKeys.PREFIX).hasSize(ApiKeys.PREFIX.length() + 43);
        assertThat(line).startsWith("billing sha256:").endsWith(" invoices:read invoices:write").doesNotContain(key);
        ApiKeys keys = ApiKeys.parse(line);
        assertThat(keys.find(key)).hasValueSatisfying(e -> {
            assertThat(e.name()).isEqualTo("billing");
            assertThat(e.scopes()).containsExactlyInAnyOrder("invoices:read", "invoices:write");
        });
        assertThat(keys.find(key + "x")).isEmpty();
        out.reset();
        assertThat(run(app(), "apikey", "billing")).isZero();
        assertThat(out()).doesNotContain(key).as("a new key every time");
        assertThat(run(app(), "apikey")).isEqualTo(2);
        assertThat(err()).contains("apikey needs the name");
        err.reset();
        assertThat(run(app(), "apikey", "two words", "x")).isEqualTo(2);
        err.reset();
        assertThat(run(app(), "apikey", "svc", "bad\"scope")).isEqualTo(2);
        assertThat(err()).contains("scope");
    }
}
