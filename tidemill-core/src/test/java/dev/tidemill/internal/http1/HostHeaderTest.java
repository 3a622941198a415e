package dev.tidemill.internal.http1;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link HostHeader#valid}: {@code uri-host [":" port]} (RFC 9110 7.2, RFC 3986 3.2.2), table-driven. */
class HostHeaderTest {

    @ParameterizedTest
    @ValueSource(strings = {
        // reg-names
        "example.com", "a", "localhost", "EXAMPLE.com", "xn--nxasmq6b.example", "my_host", "a-b.c~d",
        "!$&'()*+,;=", "sub.example.com.",
        // percent-encoded reg-name characters
        "ex%41mple.com", "%65xample.com",
        // IPv4
        "127.0.0.1", "192.0.2.255:8080",
        // IP literals
        "[::1]", "[::1]:8080", "[2001:db8::1]", "[2001:DB8:0:0:8:800:200C:417A]", "[::ffff:192.0.2.1]:443",
        "[::]", "[1::]", "[1:2:3:4:5:6:7::]", "[v1.fe80::a+en1]",
        // ports of 0 to 5 digits (port = *DIGIT; the value's range is not syntax)
        "h:", "h:0", "h:80", "h:443", "h:8080", "h:65535", "h:99999", "[::1]:",
        // the empty host, alone or with a port
        "", ":80",
        // optional whitespace around the value
        " example.com", "example.com ", "\texample.com:80\t", "  [::1]:1  ", "h:80 ",
    })
    void valid(String host) {
        assertThat(HostHeader.valid(host)).as("'%s'", host).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // a port of 6 digits, or not digits
        "h:123456", "h:0000000", "[::1]:123456", "h:8o", "h:-1", "h:+80", "h:8 0",
        // more than one colon outside brackets (an IPv6 address needs them), or a second port
        "::1", "h:80:80", "a:b",
        // whitespace inside
        "exa mple.com", "example.com :80", "example.com: 80", "ex\tample",
        // not reg-name characters: userinfo, path, query, fragment, quotes, backslash
        "user@example.com", "example.com/path", "example.com?q", "example.com#f", "exa\"mple", "exa\\mple",
        "ex<ample>", "ex{ample}", "ex|ample", "ex^ample", "ex`ample", "[", "]",
        // non-ASCII and control characters inside
        "exämple.com", "例え.jp", "exa\u0000mple", "exa\u007fmple",
        // broken IP literals
        "[::1", "::1]", "[::1]x", "[::1]:80x", "[g::1]", "[::1]]", "[::1]:[80]", "[::1%eth0]",
        // found by these tests: empty and malformed IP literals, bad percent-encoding
        "[]", "[:::]", "[1.2.3.4]", "[1:2:3:4:5:6:7:8:9]", "[1:2:3]", "[12345::1]", "[::1::2]", "[1:]", "[:1]",
        "ex%zzample", "%", "ex%4", "ex%4g.com",
    })
    void invalid(String host) {
        assertThat(HostHeader.valid(host)).as("'%s'", host).isFalse();
    }
}
