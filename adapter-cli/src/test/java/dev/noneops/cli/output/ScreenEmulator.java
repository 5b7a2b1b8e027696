package dev.noneops.cli.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A small VT100/xterm screen for tests: applies the text and the cursor and erase sequences a
 * terminal program writes, and shows the screen as a terminal would after them. Enough of xterm
 * for JLine's display (cursor moves, erase in line and display, insert and delete lines, colours
 * ignored); it fails on a sequence it does not know rather than guess.
 */
public final class ScreenEmulator {
  private final int columns;
  private final List<char[]> rows = new ArrayList<>();
  private int row;
  private int column;
  private int savedRow;
  private int savedColumn;

  public ScreenEmulator(int columns) {
    this.columns = columns;
    rows.add(blank());
  }

  /** The screen's lines, trailing blanks and empty last lines removed. */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    for (char[] r : rows) {
      out.add(new String(r).replaceAll("\\s+$", ""));
    }
    while (!out.isEmpty() && out.get(out.size() - 1).isEmpty()) {
      out.remove(out.size() - 1);
    }
    return out;
  }

  public ScreenEmulator write(String text) {
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (c == '\u001b') {
        i = escape(text, i + 1);
        continue;
      }
      switch (c) {
        case '\r' -> column = 0;
        case '\n' -> { // a TTY's output processing (ONLCR) makes it a carriage return and a line
          // feed
          column = 0;
          down();
        }
        case '\b' -> column = Math.max(0, column - 1);
        case '\u0007' -> {}
        default -> put(c);
      }
      i++;
    }
    return this;
  }

  private int escape(String text, int i) {
    char kind = text.charAt(i);
    if (kind == '7') {
      savedRow = row;
      savedColumn = column;
      return i + 1;
    }
    if (kind == '8') {
      row = savedRow;
      column = savedColumn;
      return i + 1;
    }
    if (kind == '(' || kind == ')') {
      return i + 2;
    }
    if (kind == '=' || kind == '>') {
      return i + 1;
    }
    if (kind != '[') {
      throw new IllegalArgumentException("unknown escape ESC " + kind);
    }
    int j = i + 1;
    while (j < text.length()
        && (Character.isDigit(text.charAt(j)) || text.charAt(j) == ';' || text.charAt(j) == '?')) {
      j++;
    }
    String params = text.substring(i + 1, j);
    char command = text.charAt(j);
    int n = params.isEmpty() || params.startsWith("?")
        ? 1
        : Integer.parseInt(params.split(";")[0].isEmpty() ? "1" : params.split(";")[0]);
    switch (command) {
      case 'A' -> row = Math.max(0, row - n);
      case 'B' -> {
        for (int k = 0; k < n; k++) {
          down();
        }
      }
      case 'C' -> column = Math.min(columns - 1, column + n);
      case 'D' -> column = Math.max(0, column - n);
      case 'G' -> column = n - 1;
      case 'H' -> {
        String[] p = params.split(";");
        row = p.length > 0 && !p[0].isEmpty() ? Integer.parseInt(p[0]) - 1 : 0;
        column = p.length > 1 ? Integer.parseInt(p[1]) - 1 : 0;
        while (rows.size() <= row) {
          rows.add(blank());
        }
      }
      case 'K' -> eraseLine(params.isEmpty() ? 0 : Integer.parseInt(params));
      case 'J' -> {
        eraseLine(0);
        while (rows.size() > row + 1) {
          rows.remove(rows.size() - 1);
        }
      }
      case 'L' -> {
        for (int k = 0; k < n; k++) {
          rows.add(row, blank());
        }
      }
      case 'M' -> {
        for (int k = 0; k < n && row < rows.size(); k++) {
          rows.remove(row);
        }
        if (rows.isEmpty()) {
          rows.add(blank());
        }
      }
      case 'P' -> {
        char[] r = rows.get(row);
        System.arraycopy(
            r, Math.min(columns, column + n), r, column, Math.max(0, columns - column - n));
        Arrays.fill(r, Math.max(column, columns - n), columns, ' ');
      }
      case '@' -> {
        char[] r = rows.get(row);
        System.arraycopy(
            r, column, r, Math.min(columns, column + n), Math.max(0, columns - column - n));
        Arrays.fill(r, column, Math.min(columns, column + n), ' ');
      }
      case 'm', 'h', 'l', 'r' -> {}
      default -> throw new IllegalArgumentException("unknown sequence CSI " + params + command);
    }
    return j + 1;
  }

  private void eraseLine(int mode) {
    char[] r = rows.get(row);
    switch (mode) {
      case 0 -> Arrays.fill(r, column, columns, ' ');
      case 1 -> Arrays.fill(r, 0, Math.min(columns, column + 1), ' ');
      default -> Arrays.fill(r, ' ');
    }
  }

  private void put(char c) {
    if (column >= columns) {
      column = 0;
      down();
    }
    rows.get(row)[column++] = c;
  }

  private void down() {
    row++;
    if (rows.size() <= row) {
      rows.add(blank());
    }
  }

  private char[] blank() {
    char[] r = new char[columns];
    Arrays.fill(r, ' ');
    return r;
  }
}
