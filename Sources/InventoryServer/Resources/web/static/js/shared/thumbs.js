// Product thumbnails in the web app: a product's picture when it has one, else its emoji icon (📦 when it has none).
// The one place that knows where product pictures are served.
//   import { productThumb } from "/static/js/shared/thumbs.js";
import { el } from "/static/js/app.js";

/** The address of a product's picture, or null when it has none. */
export function pictureUrl(product) {
  return product?.imageRef ? `/images/${encodeURIComponent(product.imageRef)}` : null;
}

/**
 * A product's thumbnail, a `.thumb` element (`extraClass` sizes it: "thumb-lg", "till-thumb" …): its picture, else its
 * icon. A picture that fails to load (gone, or the server out of reach) gives way to the icon, the default picture.
 * `{ imageRef: name, iconEmoji }` shows any one of a product's pictures.
 */
export function productThumb(product, extraClass = "") {
  const cls = extraClass ? `thumb ${extraClass}` : "thumb";
  const icon = (dataset) => el("span", { class: cls, "aria-hidden": "true", dataset }, product?.iconEmoji || "📦");
  const url = pictureUrl(product);
  if (!url) return icon();
  return el("img", { class: cls, src: url, alt: "", loading: "lazy", decoding: "async",
    onerror: (event) => event.currentTarget.replaceWith(icon({ brokenPicture: "true" })) });
}
