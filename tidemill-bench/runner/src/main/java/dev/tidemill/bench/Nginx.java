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
        String conf = """
                daemon off;
                master_process off;
                worker_processes 1;
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
                    server {
                        listen 127.0.0.1:%2$d;
                        location = /plaintext {
                            default_type "text/plain";
                            return 200 "Hello, World!";
                        }
                    }
                }
                """.formatted(dir, port);
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("nginx.conf"), conf);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.of(nginx.toString(), "-p", dir.toString(), "-c", dir.resolve("nginx.conf").toString(),
                "-e", dir.resolve("error.log").toString());
    }
}
