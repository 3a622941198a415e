package dev.tidemill.internal.multipart;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The differential test's corpus: tricky bodies, each with a label that the divergence list refers to. */
final class MultipartCorpus {
    private MultipartCorpus() {}

    record Case(String label, String boundary, byte[] body) {
        @Override
        public String toString() {
            return label;
        }
    }

    static final String B = "----WebKitFormBoundary7MA4YWxkTrZu0gW";

    private static final List<Case> CASES = new ArrayList<>();

    private static void add(String label, String body) {
        add(label, B, body.getBytes(StandardCharsets.UTF_8));
    }

    private static void add(String label, String boundary, byte[] body) {
        CASES.add(new Case(label, boundary, body));
    }

    private static String d() {
        return "--" + B + "\r\n";
    }

    private static String end() {
        return "--" + B + "--\r\n";
    }

    private static String field(String disposition, String content) {
        return d() + "Content-Disposition: " + disposition + "\r\n\r\n" + content + "\r\n";
    }

    private static String named(String name, String content) {
        return field("form-data; name=\"" + name + "\"", content);
    }

    static {
        String cd = "Content-Disposition: form-data; name=\"a\"\r\n";
        add("one field", named("a", "1") + end());
        add("field and file", named("title", "Hi") + d() + "Content-Disposition: form-data; name=\"f\"; filename=\"a.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nfile body\r\n" + end());
        add("three files", field("form-data; name=\"f\"; filename=\"1.png\"", "\u0089PNG")
                + d() + "Content-Disposition: form-data; name=\"f\"; filename=\"2.json\"\r\nContent-Type: application/json\r\n\r\n{}\r\n"
                + d() + "Content-Disposition: form-data; name=\"g\"; filename=\"3\"\r\nContent-Type: application/octet-stream\r\n\r\n\u0000\r\n" + end());
        add("empty field", named("a", "") + end());
        add("empty file input", field("form-data; name=\"f\"; filename=\"\"", "") + end());
        add("preamble", "This is a preamble\r\n--not-it\r\n\r\n" + named("a", "1") + end());
        add("epilogue", named("a", "1") + "--" + B + "--\r\nepilogue\r\n" + named("b", "2"));
        add("no CRLF after the final boundary", named("a", "1") + "--" + B + "--");
        add("space padding after a boundary", "--" + B + "   \r\n" + cd + "\r\n1\r\n" + end());
        add("tab padding after a boundary", "--" + B + "\t\r\n" + cd + "\r\n1\r\n" + end());
        add("padding after the final boundary", named("a", "1") + "--" + B + "--   \r\n");
        add("partial delimiter in content", named("a", "x\r\n--" + B.substring(0, 20) + "y") + end());
        add("boundary not at a line start", named("a", "x--" + B + "\r\n") + end());
        add("one dash short", named("a", "\r\n-" + B) + end());
        add("bare CR and LF in content", named("a", "a\rb\nc\r\r\n\n") + end());
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.writeBytes((d() + "Content-Disposition: form-data; name=\"bin\"; filename=\"all.bin\"\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < 512; i++) all.write(i);
        all.writeBytes(("\r\n" + end()).getBytes(StandardCharsets.US_ASCII));
        add("every byte value", B, all.toByteArray());
        add("CR right before the delimiter", named("a", "x\r") + end());
        add("long header value", d() + cd + "X-Long: " + "v".repeat(4000) + "\r\n\r\n1\r\n" + end());
        StringBuilder many = new StringBuilder(d()).append(cd);
        for (int i = 0; i < 50; i++) many.append("X-H").append(i).append(": ").append(i).append("\r\n");
        add("fifty headers", many.append("\r\n1\r\n").append(end()).toString());
        add("escaped quote in a name", field("form-data; name=\"a\\\"b\"", "1") + end());
        add("double backslash in a name", field("form-data; name=\"a\\\\b\"", "1") + end());
        add("Windows path in a filename", field("form-data; name=\"f\"; filename=\"C:\\dir\\a.txt\"", "1") + end());
        add("filename* UTF-8", field("form-data; name=\"f\"; filename*=UTF-8''%E2%82%AC%20rates.txt", "1") + end());
        add("filename* ISO-8859-1", field("form-data; name=\"f\"; filename*=ISO-8859-1''%E9t%E9.txt", "1") + end());
        add("filename and filename*", field("form-data; name=\"f\"; filename=\"plain.txt\"; filename*=UTF-8''%C3%A9.txt", "1") + end());
        add("duplicate names", named("a", "1") + named("a", "2") + named("a", "3") + end());
        add("non-ASCII name", named("prénom", "Zoë") + end());
        add("non-ASCII filename", field("form-data; name=\"f\"; filename=\"日本語.txt\"", "1") + end());
        add("token name", field("form-data; name=abc", "1") + end());
        add("upper-case disposition", field("FORM-DATA; NAME=\"a\"", "1") + end());
        add("lower-case header name", d() + "content-disposition: form-data; name=\"a\"\r\n\r\n1\r\n" + end());
        add("unknown parameter", field("form-data; foo=bar; name=\"a\"", "1") + end());
        add("percent-encoded quote in a name", field("form-data; name=\"a%22b\"", "1") + end());
        add("charset in a part's Content-Type", d() + cd + "Content-Type: text/plain; charset=ISO-8859-1\r\n\r\n\u00e9\r\n" + end());
        String special = "'()+_,-./:=?";
        add("special characters in the boundary", special,
                ("--" + special + "\r\n" + cd + "\r\n1\r\n--" + special + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        String b70 = "z".repeat(70);
        add("70-character boundary", b70, ("--" + b70 + "\r\n" + cd + "\r\n1\r\n--" + b70 + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        add("content that looks like headers", named("a", "Content-Disposition: form-data; name=\"b\"\r\n\r\nx") + end());
        add("CRLF before the first delimiter", "\r\n" + named("a", "1") + end());
        add("60 KiB field", named("a", "0123456789abcdef".repeat(3840)) + end());
        add("100 KiB file", field("form-data; name=\"f\"; filename=\"big.txt\"", "0123456789abcdef".repeat(6400)) + end());
        StringBuilder parts = new StringBuilder();
        for (int i = 0; i < 200; i++) parts.append(named("p" + i, Integer.toString(i)));
        add("200 parts", parts.append(end()).toString());
        add("whitespace around header values", d() + "Content-Disposition:   form-data; name=\"a\"  \r\nX-Y:\t z \t\r\n\r\n1\r\n" + end());
        add("empty header value", d() + cd + "X-Empty:\r\n\r\n1\r\n" + end());
        add("semicolon inside a quoted filename", field("form-data; name=\"f\"; filename=\"a;b=c.txt\"", "1") + end());
        add("trailing semicolon", field("form-data; name=\"a\";", "1") + end());

        // bodies that must be refused
        add("missing final boundary", named("a", "1"));
        add("empty body", "");
        add("no delimiter", "just some text\r\n");
        add("ends inside headers", d() + "Content-Disposition: form-da");
        add("ends inside content", d() + cd + "\r\nabc");
        add("no Content-Disposition", d() + "Content-Type: text/plain\r\n\r\n1\r\n" + end());
        add("header line without colon", d() + cd + "garbage\r\n\r\n1\r\n" + end());
        add("obs-fold", d() + cd + "X-Folded: a\r\n b\r\n\r\n1\r\n" + end());
        add("LF line ends", "--" + B + "\n" + "Content-Disposition: form-data; name=\"a\"\n\n1\n--" + B + "--\n");
        add("attachment disposition", field("attachment; name=\"a\"", "1") + end());
        add("no name", field("form-data; filename=\"a.txt\"", "1") + end());
        add("CRLF in filename*", field("form-data; name=\"f\"; filename*=UTF-8''a%0D%0Ab.txt", "1") + end());
        add("close delimiter only", "--" + B + "--\r\n");
        add("garbage after a boundary", "--" + B + "X\r\n" + cd + "\r\n1\r\n" + end());
        add("two Content-Disposition headers", d() + cd + "Content-Disposition: form-data; name=\"b\"\r\n\r\n1\r\n" + end());
        add("NUL in a header value", d() + cd + "X-Nul: a\u0000b\r\n\r\n1\r\n" + end());
        add("Content-Transfer-Encoding base64", d() + cd + "Content-Transfer-Encoding: base64\r\n\r\nMQ==\r\n" + end());
        add("two name parameters", field("form-data; name=\"a\"; name=\"b\"", "1") + end());
        add("unterminated quoted name", field("form-data; name=\"a", "1") + end());
    }

    static List<Case> cases() {
        return List.copyOf(CASES);
    }
}
