/**
 * What more than one feature's tests share: the transport and execution-mode matrix ({@link
 * dev.tidemill.tests.support.Setup}), the programs that are not ours ({@link
 * dev.tidemill.tests.support.ExternalTool}, {@link dev.tidemill.tests.support.Curl}), real decoders,
 * certificates, diagnostics readers and the suite's SLF4J provider. A helper that one feature uses
 * lives in that feature's package.
 */
package dev.tidemill.tests.support;
