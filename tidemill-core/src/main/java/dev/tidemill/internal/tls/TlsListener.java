package dev.tidemill.internal.tls;

import dev.tidemill.Config;
import dev.tidemill.Tls;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The TLS port: binds it, and gives each accepted connection {@link ClientHelloGate} (SNI, ALPN
 * policy, then the TLS engine), {@link HandshakeLimiter} and {@link ProtocolSelection}. Owns the
 * contexts ({@link CertificateReloader}) and the ticket keys. Connections still in their handshake
 * are tracked here, so a stop can close them; once a protocol is installed the connection joins the
 * server's group like any plain one.
 */
public final class TlsListener implements AutoCloseable {
    private final CertificateReloader reloader;
    private final TlsCounters counters;
    private final ChannelGroup handshaking;
    private final Channel channel;
    private final List<String> report;

    private TlsListener(CertificateReloader reloader, TlsCounters counters, ChannelGroup handshaking, Channel channel,
            List<String> report) {
        this.reloader = reloader;
        this.counters = counters;
        this.handshaking = handshaking;
        this.channel = channel;
        this.report = report;
    }

    /**
     * @param tls the settings
     * @return the header lines every TLS response carries: {@code Strict-Transport-Security} when
     *     {@link Tls#hstsMaxAge()} is positive, else none
     */
    public static String constantHeaderLines(Tls tls) {
        long age = tls.hstsMaxAge().toSeconds();
        return age > 0 ? "Strict-Transport-Security: max-age=" + age + "\r\n" : "";
    }

    /**
     * Builds the contexts (a bad certificate fails here, before anything listens) and binds the port.
     *
     * @param config the server's configuration ({@link Config#tls()} enabled)
     * @param group the event loops
     * @param transport sets the transport's server channel and its options for accepted connections
     * @param acceptLimit the listening socket's handler (the connection limit)
     * @param allocator the buffer allocator
     * @param installers by ALPN name, {@code http/1.1} among them; ALPN offers these, {@code h2} first
     * @return the listener, accepting
     */
    public static TlsListener bind(Config config, EventLoopGroup group, UnaryOperator<ServerBootstrap> transport,
            ChannelHandler acceptLimit, ByteBufAllocator allocator, Map<String, ProtocolInstaller> installers) {
        Tls tls = config.tls();
        if (!installers.containsKey(ProtocolInstaller.HTTP_1_1)) throw new IllegalArgumentException("http/1.1 must be served");
        ContextFactory.Choice choice = ContextFactory.choose(tls.provider());
        List<String> report = new ArrayList<>();
        if (choice.provider() == SslProvider.JDK && System.getProperty("jdk.tls.rejectClientInitiatedRenegotiation") == null) {
            // SunJSSE accepts a TLS 1.2 client's renegotiation unless told otherwise; BoringSSL never does.
            System.setProperty("jdk.tls.rejectClientInitiatedRenegotiation", "true");
        }
        List<String> alpn = new ArrayList<>();
        if (installers.containsKey(ProtocolInstaller.H2)) alpn.add(ProtocolInstaller.H2);
        alpn.add(ProtocolInstaller.HTTP_1_1);
        installers.keySet().stream().filter(p -> !alpn.contains(p)).forEach(alpn::add);
        TicketKeys tickets = new TicketKeys(choice.provider() == SslProvider.OPENSSL);
        ContextFactory factory = new ContextFactory(choice, alpn, tls.clientAuth(), tickets);
        DevelopmentCertificate dev = tls.identity().isEmpty() ? DevelopmentCertificate.generate() : null;
        CertificateReloader reloader = new CertificateReloader(tls, factory, dev, tickets);
        TlsCounters counters = new TlsCounters();
        AtomicInteger inProgress = new AtomicInteger();
        Map<String, ProtocolInstaller> served = Map.copyOf(installers);
        long timeoutMillis = Math.max(1, tls.handshakeTimeout().toMillis());
        ChannelGroup handshaking = new DefaultChannelGroup("tidemill-tls-handshaking", GlobalEventExecutor.INSTANCE);
        Channel channel;
        try {
            channel = transport.apply(new ServerBootstrap())
                    .group(group)
                    .option(ChannelOption.SO_BACKLOG, config.limits().acceptBacklog())
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.ALLOCATOR, allocator)
                    .handler(acceptLimit)
                    .childOption(ChannelOption.ALLOCATOR, allocator)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(
                            config.limits().writeBufferLowWaterMark(), config.limits().writeBufferHighWaterMark()))
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            handshaking.add(ch);
                            ch.pipeline()
                                    .addLast("client-hello", new ClientHelloGate(reloader::current, alpn, timeoutMillis, counters))
                                    .addLast("handshake-limit", new HandshakeLimiter(inProgress, tls.maxHandshakes(),
                                            tls.handshakeTimeout().toNanos(), counters))
                                    .addLast("protocol", new ProtocolSelection(served, handshaking));
                        }
                    })
                    .bind(config.host(), tls.port())
                    .syncUninterruptibly()
                    .channel();
        } catch (RuntimeException | Error e) {
            reloader.close();
            throw e;
        }
        report.add("tls provider " + choice.provider() + ": " + choice.reason());
        report.add("tls protocols " + String.join(", ", ContextFactory.PROTOCOLS) + "; ALPN " + String.join(", ", alpn)
                + "; session tickets " + (choice.provider() == SslProvider.OPENSSL
                        ? "rotated every " + tls.ticketKeyRotation().toMinutes() + " min" : "managed by the JDK")
                + "; at most " + tls.maxHandshakes() + " handshakes at once, " + timeoutMillis + " ms each"
                + "; reload check every " + tls.reloadInterval().toSeconds() + " s");
        for (String line : reloader.current().description()) report.add("tls " + line.strip());
        return new TlsListener(reloader, counters, handshaking, channel, List.copyOf(report));
    }

    /** @return the bound port */
    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    /** @return the provider, protocols and certificates, one line each */
    public List<String> report() {
        return report;
    }

    /** @return {@code tls.*} counters for {@code Server.diagnostics()} */
    public Map<String, Long> diagnostics() {
        Map<String, Long> out = new LinkedHashMap<>(counters.snapshot());
        out.put("tls.handshaking", (long) handshaking.size());
        out.put("tls.reloads", reloader.reloads());
        out.put("tls.reload_failures", reloader.failures());
        return out;
    }

    /** Stops accepting (the start of a graceful stop); connections already past their handshake go on. */
    public void stopAccepting() {
        channel.close().syncUninterruptibly();
        handshaking.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        stopAccepting();
        reloader.close();
    }
}
