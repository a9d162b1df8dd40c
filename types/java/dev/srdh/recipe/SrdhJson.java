package dev.srdh.recipe;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The Jackson settings the SRDH contracts need (docs/types.md, "Java"). Use this mapper, not the
 * one in quicktype's generated {@code Converter}, which ignores unknown properties.
 *
 * <ul>
 *   <li>{@code additionalProperties: false} on every closed object: an unknown property is an
 *       error ({@code FAIL_ON_UNKNOWN_PROPERTIES}).
 *   <li>I-JSON (RFC 7493): a member name given twice is an error ({@code
 *       STRICT_DUPLICATE_DETECTION}).
 *   <li>{@code integer}: {@code 1.5} is no integer and {@code null} is no {@code 0}.
 *   <li>Absent versus {@code null}: the generated classes carry {@code @JsonInclude(NON_NULL)},
 *       and {@code @JsonInclude(ALWAYS)} on each required nullable property; this mapper leaves
 *       those annotations in charge (no global inclusion override).
 *   <li>Enums: an unknown value is an error (the generated {@code @JsonCreator} throws); never
 *       enable {@code READ_UNKNOWN_ENUM_VALUES_AS_NULL}.
 * </ul>
 */
public final class SrdhJson {
    private SrdhJson() {}

    /** A new mapper with the settings above. */
    public static ObjectMapper mapper() {
        return JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .disable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }
}
