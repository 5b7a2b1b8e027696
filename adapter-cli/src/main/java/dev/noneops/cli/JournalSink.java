package dev.noneops.cli;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The systemd journal's native socket: one entry of fields ({@code MESSAGE}, {@code PRIORITY},
 * {@code MESSAGE_ID}, {@code NONEOPS_*}) per call, as {@code sd_journal_send(3)} sends it.
 */
@FunctionalInterface
public interface JournalSink {
  /** Sends one entry; fails when the journal cannot be reached. */
  void send(List<Map.Entry<String, String>> fields) throws IOException;
}
