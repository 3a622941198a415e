package dev.tidemill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** nginx as the native reference: {@code return 200 "Hello, World!"} on {@code /plaintext} only. */
final class Nginx {
    private Nginx() {}

    /**
     * Writes a config into dir and returns the command. One process (master_process off), so that
     * the pid the runner holds is the one doing the work and /proc/<pid>/stat covers all of it;
     * on the 2-CPU machine that is also the one-worker setup its server CPU set calls for.
     */
    static List<String> command(Path nginx, int port, Path dir) {
        String conf = preamble(dir, 1) + """
                    server {
                        listen 127.0.0.1:%d;
                %s    }
                }
                """.formatted(port, PLAINTEXT);
        return start(nginx, dir, conf);
    }

    /** The one location every nginx config serves. */
    private static final String PLAINTEXT = """
                        location = /plaintext {
                            default_type "text/plain";
                            return 200 "Hello, World!";
                        }
                """;

    /**
     * @param workers worker processes; with one, no master, so the pid the runner holds does the work
     * @return the config up to and including the opening of the {@code http} block: one process
     *     layout, every temp path and log under {@code dir}, no access log, keep-alive unbounded
     */
    private static String preamble(Path dir, int workers) {
        return """
                daemon off;
                master_process %2$s;
                worker_processes %3$d;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log warn;
                events { worker_connections 4096; }
                http {
                    access_log off;
                    client_body_temp_path %1$s/body;
                    proxy_temp_path %1$s/proxy;
                    fastcgi_temp_path %1$s/fastcgi;
                    uwsgi_temp_path %1$s/uwsgi;
                    scgi_temp_path %1$s/scgi;
                    keepalive_requests 100000000;
                """.formatted(dir, workers == 1 ? "off" : "on", workers);
    }

    /** Writes {@code conf} as {@code dir/nginx.conf} and returns the command that runs it. */
    private static List<String> start(Path nginx, Path dir, String conf) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("nginx.conf"), conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.of(nginx.toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("error.log").toString());
    }

    /**
     * The TLS suite's nginx ({@code TlsContract}): the same body on the plain port (HTTP/1.1), on a
     * port of its own for h2c (nginx's plain {@code listen ... http2} speaks only HTTP/2) and on the
     * TLS port with {@code http2} (ALPN h2 and http/1.1), TLS 1.2 and 1.3 (nginx 1.22's default
     * still has 1.0 and 1.1), session tickets on as by default. {@code worker_processes} is the
     * I/O thread count; with one, the master is off so the pid the runner holds does the work
     * (with more, the runner sums the workers' CPU: they are its descendants). The only log is
     * {@value #RESUMED_LOG}: a line per request on a resumed TLS session, which the handshake
     * cases must leave empty.
     */
    static List<String> tlsCommand(Path nginx, TlsTargets.Ports ports, int workers, Path dir, Path certs) {
        String conf = preamble(dir, workers) + """
                    map $ssl_session_reused $resumed { r 1; default 0; }
                    log_format resumed '$ssl_session_reused $ssl_protocol $ssl_cipher';
                    server {
                        listen 127.0.0.1:%2$d;
                %6$s    }
                    server {
                        listen 127.0.0.1:%3$d http2;
                %6$s    }
                    server {
                        listen 127.0.0.1:%4$d ssl http2;
                        ssl_certificate %5$s/cert.pem;
                        ssl_certificate_key %5$s/key.pem;
                        ssl_protocols TLSv1.2 TLSv1.3;
                        access_log %1$s/%7$s resumed if=$resumed;
                %6$s    }
                }
                """.formatted(dir, ports.plain(), ports.h2c(), ports.tls(), certs, PLAINTEXT, RESUMED_LOG);
        return start(nginx, dir, conf);
    }

    /** The log of requests on resumed TLS sessions, in the start's directory. */
    static final String RESUMED_LOG = "resumed.log";
}
