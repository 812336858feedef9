"""A synthetic catalogue for the knowledge benchmark: N products as a JSON Lines feed, about
90 tokens each, like the demo catalogue (knowledge_bench.py)."""

import json
from pathlib import Path

GARMENTS = [
    "kurta",
    "linen shirt",
    "wool jumper",
    "denim jacket",
    "chino trousers",
    "summer dress",
    "rain jacket",
    "T-shirt",
    "hoodie",
    "cardigan",
    "blazer",
    "parka",
    "polo shirt",
    "skirt",
    "coat",
    "vest",
    "tunic",
    "jeans",
    "shorts",
    "scarf",
]
ADJECTIVES = [
    "organic",
    "classic",
    "relaxed",
    "slim",
    "light",
    "heavy",
    "soft",
    "washed",
    "recycled",
    "merino",
    "cotton",
    "linen",
    "silk",
    "fleece",
    "quilted",
    "knitted",
    "striped",
    "plain",
    "printed",
    "brushed",
    "waxed",
    "ribbed",
    "cropped",
    "long",
    "short",
    "wide",
]
COLOURS = [
    "mint",
    "white",
    "black",
    "navy",
    "sand",
    "grey",
    "red",
    "blue",
    "green",
    "yellow",
    "olive",
    "rust",
    "pink",
    "teal",
    "beige",
    "brown",
    "ochre",
    "lilac",
    "cream",
    "coral",
]


def feed_write(path: Path, n: int) -> None:
    with path.open("w") as fh:
        for i in range(n):
            garment = GARMENTS[i % len(GARMENTS)]
            adjective = ADJECTIVES[(i // len(GARMENTS)) % len(ADJECTIVES)]
            colour = COLOURS[(i // (len(GARMENTS) * len(ADJECTIVES))) % len(COLOURS)]
            sku = f"BX-{i:05d}-{colour[:2].upper()}"
            title = f"{adjective.capitalize()} {garment}, {colour}"
            text = (
                f"{title}. Article {sku}. Made from {adjective} fabric in {colour}.\n\n"
                f"Sizes S to XL (size L: {'sold out' if i % 7 == 0 else 'in stock'}).\n\n"
                f"Care: {'machine wash at 30 °C' if i % 3 else 'hand wash only'}.\n\n"
                f"Price: {20 + i % 180}.90 EUR."
            )
            fh.write(
                json.dumps(
                    {
                        "id": sku,
                        "title": title,
                        "text": text,
                        "url": f"https://shop.example/p/{sku}",
                        "identifiers": [sku],
                    }
                )
                + "\n"
            )
