package dev.noneops.ports.machine;

/** {@code status.phase}: where the Machine is in its life, with the word the object carries. */
public enum MachinePhase {
  /** No phase reported yet (the field is absent). */
  UNSET(""),
  PENDING("Pending"),
  PROVISIONING("Provisioning"),
  JOINING("Joining"),
  READY("Ready"),
  FAILED("Failed"),
  /**
   * A phase this version does not know. Left as it is: a status written with {@code OTHER} keeps
   * the word the object has.
   */
  OTHER("");

  private final String word;

  MachinePhase(String word) {
    this.word = word;
  }

  /** The word in the object; {@code ""} for {@link #UNSET} and {@link #OTHER}. */
  public String word() {
    return word;
  }

  /** The phase a word names: {@link #UNSET} for none, {@link #OTHER} for one not known here. */
  public static MachinePhase fromWord(String word) {
    if (word == null || word.isEmpty()) {
      return UNSET;
    }
    for (MachinePhase phase : values()) {
      if (!phase.word.isEmpty() && phase.word.equals(word)) {
        return phase;
      }
    }
    return OTHER;
  }
}
