package dev.srdh.harness;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A small, strict JSON reader and writer (RFC 8259, with the I-JSON rules of RFC 7493), and the
 * RFC 8785 canonical form used for the Verified Snapshot digest.
 *
 * <p>Values are plain Java objects: {@code Map<String,Object>} (a {@link LinkedHashMap}, member
 * order kept), {@code List<Object>}, {@code String}, {@code Boolean}, {@link Num} (the number's
 * text, kept exactly), and Java {@code null} for JSON {@code null}. An absent member is told apart
 * from a {@code null} one with {@code Map.containsKey}.
 *
 * <p>The reader refuses what the kit refuses: duplicate member names, lone surrogate escapes,
 * control characters in strings, leading zeros, {@code NaN}, trailing text, nesting deeper than
 * {@link #MAX_DEPTH}.
 */
public final class Json {
    /** Deepest nesting the reader accepts (the adapter protocol's limit). */
    public static final int MAX_DEPTH = 64;

    private Json() {}

    /** A JSON number, kept as the text it was read from (or written as). */
    public record Num(String text) {
        public static Num of(long value) {
            return new Num(Long.toString(value));
        }

        /** The exact decimal value. */
        public BigDecimal decimal() {
            return new BigDecimal(text);
        }

        /** True when the value is a whole number (1 and 1.0 both are, as JSON Schema says). */
        public boolean isIntegral() {
            BigDecimal d = decimal();
            return d.signum() == 0 || d.stripTrailingZeros().scale() <= 0;
        }

        /** The value as a long, or null when it is not a whole number within the long range. */
        public Long asLong() {
            if (!isIntegral()) return null;
            try {
                return decimal().toBigIntegerExact().longValueExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /** A document that is not strict JSON: the message names the character offset. */
    public static final class JsonError extends Exception {
        private static final long serialVersionUID = 1L;

        public JsonError(String message) {
            super(message);
        }
    }

    // ------------------------------------------------------------------ reading

    /** Parse one JSON text (the whole string must be one value). */
    public static Object parse(String text) throws JsonError {
        Reader r = new Reader(text);
        r.skipSpace();
        Object value = r.value(0);
        r.skipSpace();
        if (r.pos != text.length()) throw r.error("unexpected text after the JSON value");
        return value;
    }

    private static final class Reader {
        final String s;
        int pos;

        Reader(String s) {
            this.s = s;
        }

        JsonError error(String what) {
            return new JsonError(what + " at offset " + pos);
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
                pos++;
            }
        }

        Object value(int depth) throws JsonError {
            if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH);
            if (pos >= s.length()) throw error("unexpected end of input");
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object(depth + 1);
                case '[':
                    return array(depth + 1);
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return number();
                    throw error("unexpected character '" + c + "'");
            }
        }

        Object literal(String word, Object value) throws JsonError {
            if (!s.startsWith(word, pos)) throw error("invalid literal");
            pos += word.length();
            return value;
        }

        Map<String, Object> object(int depth) throws JsonError {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == '}') {
                pos++;
                return map;
            }
            while (true) {
                skipSpace();
                if (pos >= s.length() || s.charAt(pos) != '"') throw error("expected a member name");
                String key = string();
                if (map.containsKey(key)) throw error("duplicate member name \"" + key + "\"");
                skipSpace();
                expect(':');
                skipSpace();
                map.put(key, value(depth));
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                    continue;
                }
                expect('}');
                return map;
            }
        }

        List<Object> array(int depth) throws JsonError {
            List<Object> list = new ArrayList<>();
            pos++;
            skipSpace();
            if (pos < s.length() && s.charAt(pos) == ']') {
                pos++;
                return list;
            }
            while (true) {
                skipSpace();
                list.add(value(depth));
                skipSpace();
                if (pos < s.length() && s.charAt(pos) == ',') {
                    pos++;
                    continue;
                }
                expect(']');
                return list;
            }
        }

        void expect(char c) throws JsonError {
            if (pos >= s.length() || s.charAt(pos) != c) throw error("expected '" + c + "'");
            pos++;
        }

        String string() throws JsonError {
            pos++; // opening quote
            StringBuilder out = new StringBuilder();
            while (true) {
                if (pos >= s.length()) throw error("unterminated string");
                char c = s.charAt(pos++);
                if (c == '"') break;
                if (c < 0x20) throw error("control character in a string");
                if (Character.isSurrogate(c)) {
                    // a raw surrogate must be half of a well-formed pair
                    if (Character.isHighSurrogate(c) && pos < s.length()
                            && Character.isLowSurrogate(s.charAt(pos))) {
                        out.append(c).append(s.charAt(pos++));
                        continue;
                    }
                    throw error("lone surrogate in a string");
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                if (pos >= s.length()) throw error("unterminated escape");
                char e = s.charAt(pos++);
                switch (e) {
                    case '"': out.append('"'); break;
                    case '\\': out.append('\\'); break;
                    case '/': out.append('/'); break;
                    case 'b': out.append('\b'); break;
                    case 'f': out.append('\f'); break;
                    case 'n': out.append('\n'); break;
                    case 'r': out.append('\r'); break;
                    case 't': out.append('\t'); break;
                    case 'u': {
                        char u = hex4();
                        if (Character.isHighSurrogate(u)) {
                            if (s.startsWith("\\u", pos)) {
                                pos += 2;
                                char low = hex4();
                                if (!Character.isLowSurrogate(low)) throw error("lone surrogate escape");
                                out.append(u).append(low);
                            } else {
                                throw error("lone surrogate escape");
                            }
                        } else if (Character.isLowSurrogate(u)) {
                            throw error("lone surrogate escape");
                        } else {
                            out.append(u);
                        }
                        break;
                    }
                    default:
                        throw error("invalid escape \\" + e);
                }
            }
            return out.toString();
        }

        char hex4() throws JsonError {
            if (pos + 4 > s.length()) throw error("short \\u escape");
            int v = 0;
            for (int i = 0; i < 4; i++) {
                int d = Character.digit(s.charAt(pos++), 16);
                if (d < 0) throw error("invalid \\u escape");
                v = v * 16 + d;
            }
            return (char) v;
        }

        Num number() throws JsonError {
            int start = pos;
            if (s.charAt(pos) == '-') pos++;
            if (pos >= s.length()) throw error("invalid number");
            if (s.charAt(pos) == '0') {
                pos++;
            } else if (s.charAt(pos) >= '1' && s.charAt(pos) <= '9') {
                while (pos < s.length() && Character.isDigit(s.charAt(pos)) && s.charAt(pos) < 128) pos++;
            } else {
                throw error("invalid number");
            }
            if (pos < s.length() && s.charAt(pos) == '.') {
                pos++;
                int digits = pos;
                while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
                if (pos == digits) throw error("invalid number");
            }
            if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                pos++;
                if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
                int digits = pos;
                while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
                if (pos == digits) throw error("invalid number");
            }
            String text = s.substring(start, pos);
            if (Double.isInfinite(Double.parseDouble(text))) throw error("number outside the double range");
            return new Num(text);
        }
    }

    // ------------------------------------------------------------------ writing

    /** Compact JSON text of a value (members in insertion order; numbers as their text). */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, false);
        return out.toString();
    }

    /**
     * RFC 8785 canonical JSON: members sorted by UTF-16 code units, numbers in ECMAScript form,
     * strings with the minimal escapes.
     */
    public static String canonical(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, true);
        return out.toString();
    }

    /** SHA-256 (lower-case hex) of the UTF-8 bytes of {@link #canonical(Object)}. */
    public static String digest(Object value) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] hash = sha.digest(canonical(value).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder out, Object value, boolean canonical) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else if (value instanceof String s) {
            quote(out, s);
        } else if (value instanceof Num n) {
            out.append(canonical ? esNumber(n) : n.text());
        } else if (value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Map<?, ?> m) {
            Map<String, Object> map = (Map<String, Object>) m;
            if (canonical) map = new TreeMap<>(map); // String.compareTo: UTF-16 code units
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : map.entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(out, e.getKey());
                out.append(':');
                write(out, e.getValue(), canonical);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) out.append(',');
                write(out, list.get(i), canonical);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + value.getClass());
        }
    }

    private static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\b': out.append("\\b"); break;
                case '\f': out.append("\\f"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }

    /** ECMAScript Number::toString of the number's double value (RFC 8785 section 3.2.2.3). */
    static String esNumber(Num n) {
        double d = Double.parseDouble(n.text());
        if (d == 0) return "0";
        if (d < 0) return "-" + esPositive(-d);
        return esPositive(d);
    }

    private static String esPositive(double d) {
        // the shortest decimal that reads back as d; ties resolved to the nearest (HALF_EVEN)
        BigDecimal exact = new BigDecimal(d);
        BigDecimal shortest = exact;
        for (int p = 1; p <= 17; p++) {
            BigDecimal candidate = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == d) {
                shortest = candidate;
                break;
            }
        }
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale(); // value = 0.digits * 10^n
        if (k <= n && n <= 21) return digits + "0".repeat(n - k);
        if (0 < n && n <= 21) return digits.substring(0, n) + "." + digits.substring(n);
        if (-6 < n && n <= 0) return "0." + "0".repeat(-n) + digits;
        String exp = (n - 1 >= 0 ? "+" : "-") + Math.abs(n - 1);
        return (k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1)) + "e" + exp;
    }

    /**
     * A check hook for the kit's tests: for each line of standard input (one JSON text), print
     * {@code ok <canonical JSON>} or {@code refused <reason>}.
     */
    public static void main(String[] args) throws java.io.IOException {
        java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
        java.io.PrintStream out = new java.io.PrintStream(System.out, true, StandardCharsets.UTF_8);
        String line;
        while ((line = in.readLine()) != null) {
            try {
                out.println("ok " + canonical(parse(line)));
            } catch (JsonError e) {
                out.println("refused " + e.getMessage());
            }
        }
    }

    // ------------------------------------------------------------------ small helpers

    /** A fresh ordered object from alternating keys and values. */
    public static Map<String, Object> obj(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** The value as an object, or null. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> asObject(Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : null;
    }

    /** The value as an array, or null. */
    @SuppressWarnings("unchecked")
    public static List<Object> asArray(Object value) {
        return value instanceof List<?> ? (List<Object>) value : null;
    }

    /** The value as a string, or null. */
    public static String asString(Object value) {
        return value instanceof String s ? s : null;
    }

    /** The value as a long when it is an integral number, else null. */
    public static Long asLong(Object value) {
        if (value instanceof Num n) return n.asLong();
        if (value instanceof Integer i) return i.longValue();
        if (value instanceof Long l) return l;
        return null;
    }

    /** Number of Unicode code points of a string (JSON Schema's string length). */
    public static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** The first {@code max} code points of a string. */
    public static String cut(String s, int max) {
        if (length(s) <= max) return s;
        return s.substring(0, s.offsetByCodePoints(0, max));
    }
}
