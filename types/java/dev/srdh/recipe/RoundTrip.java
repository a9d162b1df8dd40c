package dev.srdh.recipe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads lines {@code <class name> TAB <file>} on stdin; for each file, decodes the document into
 * the class with {@link SrdhJson#mapper()}, encodes it again and compares the two JSON trees.
 * Prints one line per file: {@code OK}, {@code DIFF} (with the re-encoded text) or {@code
 * ERROR} (with the decoder's message), tab-separated, file second.
 */
public final class RoundTrip {
    private RoundTrip() {}

    public static void main(String[] args) throws Exception {
        ObjectMapper mapper = SrdhJson.mapper();
        BufferedReader in =
                new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.split("\t", 2);
            String text = Files.readString(Path.of(parts[1]), StandardCharsets.UTF_8);
            try {
                Object value = mapper.readValue(text, Class.forName(parts[0]));
                String written = mapper.writeValueAsString(value);
                JsonNode before = mapper.readTree(text);
                JsonNode after = mapper.readTree(written);
                System.out.println(
                        (before.equals(after) ? "OK" : "DIFF") + "\t" + parts[1] + "\t" + written);
            } catch (Exception error) {
                String message = String.valueOf(error.getMessage()).replaceAll("\\s+", " ");
                System.out.println("ERROR\t" + parts[1] + "\t" + message);
            }
        }
    }
}
