package dev.noneops.hostfs.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalSocketTest {
  @Test
  void aFieldIsALineAndAValueWithALineBreakIsLengthPrefixed() {
    byte[] datagram = JournalSocket.encode(List.of(
        Map.entry("MESSAGE", "two\nlines"),
        Map.entry("PRIORITY", "3"),
        Map.entry("NONEOPS_OUTCOME", "rolled-back")));
    byte[] expected = new byte[] {
      'M', 'E', 'S', 'S', 'A', 'G', 'E', '\n', 9, 0, 0, 0, 0, 0, 0, 0, 't', 'w', 'o', '\n', 'l',
      'i', 'n', 'e', 's', '\n'
    };
    assertThat(new String(datagram, StandardCharsets.UTF_8))
        .isEqualTo(new String(expected, StandardCharsets.UTF_8)
            + "PRIORITY=3\nNONEOPS_OUTCOME=rolled-back\n");
  }

  @Test
  void aNameTheJournalWouldRefuseIsLeftOut() {
    byte[] datagram = JournalSocket.encode(
        List.of(Map.entry("_PID", "1"), Map.entry("lower", "x"), Map.entry("MESSAGE", "kept")));
    assertThat(new String(datagram, StandardCharsets.UTF_8)).isEqualTo("MESSAGE=kept\n");
  }

  @Test
  void withoutASocketThereIsNoJournal(@TempDir Path dir) {
    assertThat(JournalSocket.at(dir.resolve("socket"))).isEmpty();
    assertThat(JournalSocket.at(dir)).isEmpty();
  }
}
