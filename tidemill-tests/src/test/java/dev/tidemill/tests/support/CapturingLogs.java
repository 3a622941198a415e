package dev.tidemill.tests.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J provider of this module's tests (selected with {@code -Dslf4j.provider} in the pom):
 * the access log's logger ({@code tidemill.access}) keeps its lines in memory for
 * {@code AccessLogTest}; every other logger is slf4j-simple's, as before. A provider rather than
 * a logging backend with a list appender because slf4j-simple is already the suite's backend, and
 * this keeps it.
 */
public final class CapturingLogs implements SLF4JServiceProvider {
    /** What {@code tidemill.access} logged at INFO, formatted, in order. */
    public static final List<String> ACCESS = new CopyOnWriteArrayList<>();

    private final SLF4JServiceProvider simple;
    private ILoggerFactory factory;

    public CapturingLogs() {
        try {
            simple = (SLF4JServiceProvider) Class.forName("org.slf4j.simple.SimpleServiceProvider").getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void initialize() {
        simple.initialize();
        ILoggerFactory delegate = simple.getLoggerFactory();
        Logger access = new Capturing();
        factory = name -> name.equals("tidemill.access") ? access : delegate.getLogger(name);
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return simple.getMarkerFactory();
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return simple.getMDCAdapter();
    }

    @Override
    public String getRequestedApiVersion() {
        return simple.getRequestedApiVersion();
    }

    /** Keeps INFO and above in {@link #ACCESS}. */
    private static final class Capturing extends LegacyAbstractLogger {
        Capturing() {
            this.name = "tidemill.access";
        }

        @Override public boolean isTraceEnabled() { return false; }
        @Override public boolean isDebugEnabled() { return false; }
        @Override public boolean isInfoEnabled() { return true; }
        @Override public boolean isWarnEnabled() { return true; }
        @Override public boolean isErrorEnabled() { return true; }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String msg, Object[] args, Throwable t) {
            ACCESS.add(MessageFormatter.basicArrayFormat(msg, args));
        }
    }
}
