"""Demo mode (no API key): a reply that says plainly that no model is connected and shows
what the model would have been sent. It never pretends to be a language model."""


def demo_reply(
    *,
    sections: dict[str, int],
    verbatim_turns: int,
    covered_turns: int,
    core_version: int,
    budget: int,
    reserve: int,
    language: str = "en",
    extra_lines: list[str] | tuple = (),
) -> str:
    """Demo mode: say plainly that no model is connected and show what it would be sent."""
    total = sum(sections.values())
    lines_en = [
        "[Demo mode - no language model is connected.]",
        "This is what the model would have been sent for your message:",
    ]
    lines_de = [
        "[Demo-Modus - es ist kein Sprachmodell angeschlossen.]",
        "Das hätte das Modell zu Ihrer Nachricht erhalten:",
    ]
    lines = lines_de if language == "de" else lines_en
    for name, tokens in sections.items():
        lines.append(f"- {name}: {tokens} tokens")
    lines.append(
        f"- verbatim turns: {verbatim_turns}; turns covered by the condensed core: "
        f"{covered_turns} (core version {core_version})"
    )
    lines.append(f"- total: {total} of {budget} tokens ({reserve} reserved for the answer)")
    lines.extend(extra_lines)  # shop knowledge: the best excerpt and the active objects
    return "\n".join(lines)
