package dev.memplan.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class EnumNamesTest {
    @Test
    void aNameMatchesTrimmedInAnyCaseAndAnUnknownOneListsEveryValue() {
        assertEquals(TensorSetting.ALL, EnumNames.parse(TensorSetting.values(), TensorSetting::fileName, " ALL ", "setting"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EnumNames.parse(SolveStatus.values(), s -> s.name().toLowerCase(Locale.ROOT), "nope", "status"));
        StringBuilder listed = new StringBuilder();
        for (SolveStatus s : SolveStatus.values()) {
            listed.append(listed.length() == 0 ? "" : " or ").append("'").append(s.name().toLowerCase(Locale.ROOT))
                    .append("'");
        }
        assertEquals("unknown status 'nope': use " + listed, e.getMessage());
    }

    @Test
    void aTensorSettingIsParsedByTheSameRuleAndKeepsItsOldSpelling() {
        assertEquals(TensorSetting.ALL, TensorSetting.parse("activations+parameters"));
        assertEquals(TensorSetting.ACTIVATIONS, TensorSetting.parse("Activations"));
        assertEquals("unknown tensor setting 'weights': use 'activations' or 'all'",
                assertThrows(IllegalArgumentException.class, () -> TensorSetting.parse("weights")).getMessage());
    }
}
