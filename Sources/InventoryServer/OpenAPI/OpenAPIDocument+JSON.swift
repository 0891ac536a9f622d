// The OpenAPI 3.1 document of the whole HTTP API, served at GET /api/openapi.json.
//
// Keep it true: OpenAPITests checks that every route of the router is documented and every documented route
// exists, and scripts/schemathesis.sh (run by scripts/test.sh) fuzzes a live server against it.

extension OpenAPIDocument {
    /// The document as JSON text.
    public static let json: String = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Stockroom JSON API",
    "version": "1.0.0",
    "summary": "Inventory and point of sale for one shop.",
    "description": "Amounts, quantities and percentages travel as decimal strings (`12.50`, `0.5`, `7.25`); times as ISO 8601 (`2026-11-22T14:30:00.000Z`), days as `YYYY-MM-DD`. Every error is an RFC 9457 `application/problem+json` document naming the field at fault. Sign in with `Authorization: Bearer <token>` (API tokens, created by an admin under /api/v1/tokens) or with the session cookie from /api/v1/auth/login plus the `X-CSRF-Token` header on every change; browser changes must come from the shop's own pages (`Origin`, `Sec-Fetch-Site`), and JSON bodies must be sent as `application/json` (else 415). Request paths must be canonical (no `//`, `.` or `..` segments, no trailing `/`): others answer 400. On first run, POST /api/v1/auth/setup creates the admin; there is no default password."
  },
  "servers": [{"url": "/"}],
  "security": [{"bearerAuth": []}, {"sessionCookie": [], "csrfToken": []}],
  "tags": [
    {"name": "products"},
    {"name": "categories"},
    {"name": "suppliers"},
    {"name": "customers"},
    {"name": "purchases"},
    {"name": "sales"},
    {"name": "returns"},
    {"name": "adjustments"},
    {"name": "reports"},
    {"name": "data"},
    {"name": "settings"},
    {"name": "barcodes"},
    {"name": "auth"},
    {"name": "users"},
    {"name": "tokens"},
    {"name": "audit"},
    {"name": "public"},
    {"name": "events"},
    {"name": "meta"}
  ],
  "paths": {
    "/health": {
      "get": {
        "tags": ["meta"],
        "operationId": "health",
        "summary": "Liveness check",
        "security": [],
        "responses": {"200": {"description": "The server is up.", "content": {"text/plain": {"schema": {"const": "ok"}}}}}
      }
    },
    "/api/openapi.json": {
      "get": {
        "tags": ["meta"],
        "operationId": "openAPIDocument",
        "summary": "This document",
        "security": [],
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document of this API.",
            "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "paths"]}}}
          }
        }
      }
    },
    "/api/v1/products": {
      "get": {
        "tags": ["products"],
        "operationId": "listProducts",
        "summary": "Search and list products",
        "description": "Search by name, SKU or barcode (case- and accent-insensitive, prefix and substring). Needs viewCatalogue.",
        "parameters": [
          {"name": "search", "in": "query", "schema": {"type": "string"}},
          {"name": "categoryId", "in": "query", "schema": {"$ref": "#/components/schemas/Id"}},
          {"name": "status", "in": "query", "schema": {"$ref": "#/components/schemas/StockStatus"}},
          {
            "name": "sort",
            "in": "query",
            "schema": {"type": "string", "enum": ["name", "quantity", "value", "salePrice", "updated"], "default": "name"}
          },
          {
            "name": "archived",
            "in": "query",
            "description": "Include archived products.",
            "schema": {"type": "boolean", "default": false}
          },
          {"$ref": "#/components/parameters/Limit500"},
          {"$ref": "#/components/parameters/Offset"}
        ],
        "responses": {
          "200": {
            "description": "A page of products.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ProductPage"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "post": {
        "tags": ["products"],
        "operationId": "createProduct",
        "summary": "Create a product",
        "description": "Needs editCatalogue.",
        "requestBody": {"$ref": "#/components/requestBodies/Product"},
        "responses": {
          "201": {
            "description": "The product.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Product"}}},
            "links": {
              "GetProduct": {"operationId": "getProduct", "parameters": {"id": "$response.body#/id"}},
              "UpdateProduct": {"operationId": "updateProduct", "parameters": {"id": "$response.body#/id"}},
              "DeleteProduct": {"operationId": "deleteProduct", "parameters": {"id": "$response.body#/id"}},
              "ArchiveProduct": {"operationId": "archiveProduct", "parameters": {"id": "$response.body#/id"}},
              "RestoreProduct": {"operationId": "restoreProduct", "parameters": {"id": "$response.body#/id"}},
              "ProductMovements": {"operationId": "productMovements", "parameters": {"id": "$response.body#/id"}},
              "UploadImage": {"operationId": "uploadProductImage", "parameters": {"id": "$response.body#/id"}},
              "DeleteImage": {"operationId": "deleteProductImage", "parameters": {"id": "$response.body#/id"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/products/barcode/{code}": {
      "get": {
        "tags": ["products"],
        "operationId": "productByBarcode",
        "summary": "Look a product up by barcode (UPC/EAN normalised)",
        "parameters": [{"name": "code", "in": "path", "required": true, "schema": {"type": "string"}}],
        "responses": {"200": {"$ref": "#/components/responses/Product"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/products/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "get": {
        "tags": ["products"],
        "operationId": "getProduct",
        "summary": "A product with its stock",
        "responses": {"200": {"$ref": "#/components/responses/Product"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "put": {
        "tags": ["products"],
        "operationId": "updateProduct",
        "summary": "Replace a product's fields",
        "description": "Fields left out keep their value, except sku, barcode, categoryId, minimumSalePrice and lowStockThreshold, which are cleared.",
        "requestBody": {"$ref": "#/components/requestBodies/Product"},
        "responses": {"200": {"$ref": "#/components/responses/Product"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "patch": {
        "tags": ["products"],
        "operationId": "patchProduct",
        "summary": "Change some of a product's fields",
        "description": "A JSON merge patch (RFC 7396): a field left out keeps its value; `null` clears sku, barcode, categoryId, minimumSalePrice or lowStockThreshold (and gives iconEmoji back the name's icon); the other fields cannot be cleared. Unknown fields are refused. The result is checked by the same rules as PUT, and a refused patch changes nothing.",
        "requestBody": {
          "required": true,
          "content": {
            "application/merge-patch+json": {"schema": {"$ref": "#/components/schemas/ProductPatch"}},
            "application/json": {"schema": {"$ref": "#/components/schemas/ProductPatch"}}
          }
        },
        "responses": {"200": {"$ref": "#/components/responses/Product"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "delete": {
        "tags": ["products"],
        "operationId": "deleteProduct",
        "summary": "Delete a product that no document uses",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/products/{id}/archive": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "post": {
        "tags": ["products"],
        "operationId": "archiveProduct",
        "summary": "Archive a product (hide it from lists and the till)",
        "responses": {"200": {"$ref": "#/components/responses/Product"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/products/{id}/restore": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "post": {
        "tags": ["products"],
        "operationId": "restoreProduct",
        "summary": "Bring an archived product back",
        "responses": {"200": {"$ref": "#/components/responses/Product"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/products/{id}/movements": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "get": {
        "tags": ["products"],
        "operationId": "productMovements",
        "summary": "The product's stock movements, oldest first",
        "responses": {
          "200": {
            "description": "Movements with the balance after each.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Movement"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/products/{id}/image": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "put": {
        "tags": ["products"],
        "operationId": "uploadProductImage",
        "summary": "Set the product's picture",
        "description": "A JPEG or PNG, recognised by its content, not its name or Content-Type; at most 5 MB and 6000 pixels a side (checked on its header before decoding). It is stored without text chunks, comments, metadata other than Exif, ICC and JFIF/Adobe, or bytes after its end. A non-square picture is accepted and shown centre-cropped (`square` says which).",
        "requestBody": {
          "required": true,
          "content": {
            "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
            "image/png": {"schema": {"type": "string", "format": "binary"}},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
          }
        },
        "responses": {
          "200": {
            "description": "The stored picture.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UploadedImage"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "delete": {
        "tags": ["products"],
        "operationId": "deleteProductImage",
        "summary": "Remove the product's picture (it shows its emoji icon again)",
        "responses": {"204": {"description": "Removed."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/categories": {
      "get": {
        "tags": ["categories"],
        "operationId": "listCategories",
        "summary": "All categories",
        "responses": {
          "200": {
            "description": "Categories by name.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Category"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "post": {
        "tags": ["categories"],
        "operationId": "createCategory",
        "summary": "Create a category",
        "requestBody": {"$ref": "#/components/requestBodies/Category"},
        "responses": {
          "201": {
            "description": "The category.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Category"}}},
            "links": {
              "UpdateCategory": {"operationId": "updateCategory", "parameters": {"id": "$response.body#/id"}},
              "DeleteCategory": {"operationId": "deleteCategory", "parameters": {"id": "$response.body#/id"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/categories/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "put": {
        "tags": ["categories"],
        "operationId": "updateCategory",
        "summary": "Replace a category",
        "requestBody": {"$ref": "#/components/requestBodies/Category"},
        "responses": {"200": {"$ref": "#/components/responses/Category"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "delete": {
        "tags": ["categories"],
        "operationId": "deleteCategory",
        "summary": "Delete a category (its products stay, without a category)",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/suppliers": {
      "get": {
        "tags": ["suppliers"],
        "operationId": "listSuppliers",
        "summary": "Suppliers, optionally searched by name",
        "parameters": [{"name": "search", "in": "query", "schema": {"type": "string"}}],
        "responses": {"200": {"$ref": "#/components/responses/ContactList"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "post": {
        "tags": ["suppliers"],
        "operationId": "createSupplier",
        "summary": "Create a supplier",
        "requestBody": {"$ref": "#/components/requestBodies/Contact"},
        "responses": {
          "201": {
            "description": "The contact.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Contact"}}},
            "links": {
              "UpdateSupplier": {"operationId": "updateSupplier", "parameters": {"id": "$response.body#/id"}},
              "DeleteSupplier": {"operationId": "deleteSupplier", "parameters": {"id": "$response.body#/id"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/suppliers/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "put": {
        "tags": ["suppliers"],
        "operationId": "updateSupplier",
        "summary": "Replace a supplier",
        "requestBody": {"$ref": "#/components/requestBodies/Contact"},
        "responses": {"200": {"$ref": "#/components/responses/Contact"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "delete": {
        "tags": ["suppliers"],
        "operationId": "deleteSupplier",
        "summary": "Delete a supplier no document uses",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/customers": {
      "get": {
        "tags": ["customers"],
        "operationId": "listCustomers",
        "summary": "Customers, optionally searched by name",
        "parameters": [{"name": "search", "in": "query", "schema": {"type": "string"}}],
        "responses": {"200": {"$ref": "#/components/responses/ContactList"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "post": {
        "tags": ["customers"],
        "operationId": "createCustomer",
        "summary": "Create a customer",
        "requestBody": {"$ref": "#/components/requestBodies/Contact"},
        "responses": {
          "201": {
            "description": "The contact.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Contact"}}},
            "links": {
              "UpdateCustomer": {"operationId": "updateCustomer", "parameters": {"id": "$response.body#/id"}},
              "DeleteCustomer": {"operationId": "deleteCustomer", "parameters": {"id": "$response.body#/id"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/customers/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "put": {
        "tags": ["customers"],
        "operationId": "updateCustomer",
        "summary": "Replace a customer",
        "requestBody": {"$ref": "#/components/requestBodies/Contact"},
        "responses": {"200": {"$ref": "#/components/responses/Contact"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "delete": {
        "tags": ["customers"],
        "operationId": "deleteCustomer",
        "summary": "Delete a customer no sale uses",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/purchases": {
      "get": {
        "tags": ["purchases"],
        "operationId": "listPurchases",
        "summary": "Purchases, newest first, with supplier name and total",
        "parameters": [{"$ref": "#/components/parameters/Limit500"}, {"$ref": "#/components/parameters/Offset"}],
        "responses": {
          "200": {"$ref": "#/components/responses/DocumentSummaries"},
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "post": {
        "tags": ["purchases"],
        "operationId": "createPurchase",
        "summary": "Receive stock; a line may create a new product inline",
        "description": "With `dryRun=true`: 200 and the purchase exactly as it would be booked now (each line's `averageCostAfter`, the total), computed by the same posting code and rolled back — nothing is stored, no live event, no audit entry. The ids in it are the ones it would get.",
        "parameters": [{"$ref": "#/components/parameters/DryRun"}, {"$ref": "#/components/parameters/IdempotencyKey"}],
        "requestBody": {"$ref": "#/components/requestBodies/Purchase"},
        "responses": {
          "200": {
            "description": "With dryRun=true: what would be booked; nothing is stored.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Purchase"}}}
          },
          "201": {
            "headers": {"Idempotent-Replayed": {"description": "true when this answers an earlier request with the same Idempotency-Key (nothing was booked now).", "schema": {"type": "string", "enum": ["true"]}}},
            "description": "The purchase.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Purchase"}}},
            "links": {
              "GetPurchase": {"operationId": "getPurchase", "parameters": {"id": "$response.body#/id"}},
              "UpdatePurchase": {"operationId": "updatePurchase", "parameters": {"id": "$response.body#/id"}},
              "DeletePurchase": {"operationId": "deletePurchase", "parameters": {"id": "$response.body#/id"}},
              "PurchasedProduct": {"operationId": "getProduct", "parameters": {"id": "$response.body#/lines/0/productId"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/purchases/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "get": {
        "tags": ["purchases"],
        "operationId": "getPurchase",
        "summary": "A purchase with its lines",
        "responses": {"200": {"$ref": "#/components/responses/Purchase"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "put": {
        "tags": ["purchases"],
        "operationId": "updatePurchase",
        "summary": "Edit a purchase; later costs are recomputed",
        "description": "With `dryRun=true`: the purchase as the edit would book it, and nothing is stored.",
        "parameters": [{"$ref": "#/components/parameters/DryRun"}],
        "requestBody": {"$ref": "#/components/requestBodies/Purchase"},
        "responses": {"200": {"$ref": "#/components/responses/Purchase"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "delete": {
        "tags": ["purchases"],
        "operationId": "deletePurchase",
        "summary": "Delete a purchase (admin)",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/sales": {
      "get": {
        "tags": ["sales"],
        "operationId": "listSales",
        "summary": "Sales, newest first, with customer name and total",
        "parameters": [{"$ref": "#/components/parameters/Limit500"}, {"$ref": "#/components/parameters/Offset"}],
        "responses": {
          "200": {"$ref": "#/components/responses/DocumentSummaries"},
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "post": {
        "tags": ["sales"],
        "operationId": "createSale",
        "summary": "Sell; a line without unitPrice sells at the product's sale price",
        "description": "With `dryRun=true`: 200 and the sale exactly as it would be booked now (each line's revenue, tax and costOfGoodsSold, the totals), computed by the same posting code and rolled back — nothing is stored, no live event, no audit entry. The ids in it are the ones it would get.",
        "parameters": [{"$ref": "#/components/parameters/DryRun"}, {"$ref": "#/components/parameters/IdempotencyKey"}],
        "requestBody": {"$ref": "#/components/requestBodies/Sale"},
        "responses": {
          "200": {
            "description": "With dryRun=true: what would be booked; nothing is stored.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Sale"}}}
          },
          "201": {
            "headers": {"Idempotent-Replayed": {"description": "true when this answers an earlier request with the same Idempotency-Key (nothing was booked now).", "schema": {"type": "string", "enum": ["true"]}}},
            "description": "The sale.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Sale"}}},
            "links": {
              "GetSale": {"operationId": "getSale", "parameters": {"id": "$response.body#/id"}},
              "UpdateSale": {"operationId": "updateSale", "parameters": {"id": "$response.body#/id"}},
              "DeleteSale": {"operationId": "deleteSale", "parameters": {"id": "$response.body#/id"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/sales/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "get": {
        "tags": ["sales"],
        "operationId": "getSale",
        "summary": "A sale with its lines",
        "responses": {"200": {"$ref": "#/components/responses/Sale"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "put": {
        "tags": ["sales"],
        "operationId": "updateSale",
        "summary": "Edit a sale (manager)",
        "description": "With `dryRun=true`: the sale as the edit would book it, and nothing is stored.",
        "parameters": [{"$ref": "#/components/parameters/DryRun"}],
        "requestBody": {"$ref": "#/components/requestBodies/Sale"},
        "responses": {"200": {"$ref": "#/components/responses/Sale"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "delete": {
        "tags": ["sales"],
        "operationId": "deleteSale",
        "summary": "Delete a sale (admin)",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/returns/customer": {
      "post": {
        "tags": ["returns"],
        "operationId": "createCustomerReturn",
        "summary": "Take goods back from a customer (refund)",
        "parameters": [{"$ref": "#/components/parameters/IdempotencyKey"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CustomerReturnRequest"}}}
        },
        "responses": {
          "201": {
            "headers": {"Idempotent-Replayed": {"description": "true when this answers an earlier request with the same Idempotency-Key (nothing was booked now).", "schema": {"type": "string", "enum": ["true"]}}},
            "description": "Recorded.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Created"}}},
            "links": {"DeleteCustomerReturn": {"operationId": "deleteCustomerReturn", "parameters": {"id": "$response.body#/id"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/returns/customer/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "delete": {
        "tags": ["returns"],
        "operationId": "deleteCustomerReturn",
        "summary": "Delete a customer return (admin)",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/returns/supplier": {
      "post": {
        "tags": ["returns"],
        "operationId": "createSupplierReturn",
        "summary": "Send goods back to a supplier",
        "parameters": [{"$ref": "#/components/parameters/IdempotencyKey"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SupplierReturnRequest"}}}
        },
        "responses": {
          "201": {
            "headers": {"Idempotent-Replayed": {"description": "true when this answers an earlier request with the same Idempotency-Key (nothing was booked now).", "schema": {"type": "string", "enum": ["true"]}}},
            "description": "Recorded.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Created"}}},
            "links": {"DeleteSupplierReturn": {"operationId": "deleteSupplierReturn", "parameters": {"id": "$response.body#/id"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/returns/supplier/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "delete": {
        "tags": ["returns"],
        "operationId": "deleteSupplierReturn",
        "summary": "Delete a supplier return (admin)",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/adjustments": {
      "post": {
        "tags": ["adjustments"],
        "operationId": "createAdjustment",
        "summary": "Correct stock (count, damage, expiry …)",
        "parameters": [{"$ref": "#/components/parameters/IdempotencyKey"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AdjustmentRequest"}}}
        },
        "responses": {
          "201": {
            "headers": {"Idempotent-Replayed": {"description": "true when this answers an earlier request with the same Idempotency-Key (nothing was booked now).", "schema": {"type": "string", "enum": ["true"]}}},
            "description": "Recorded.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Created"}}},
            "links": {"DeleteAdjustment": {"operationId": "deleteAdjustment", "parameters": {"id": "$response.body#/id"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/adjustments/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "delete": {
        "tags": ["adjustments"],
        "operationId": "deleteAdjustment",
        "summary": "Delete an adjustment (admin)",
        "responses": {"204": {"description": "Deleted."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/reports/snapshot": {
      "get": {
        "tags": ["reports"],
        "operationId": "stockSnapshot",
        "summary": "Stock and value per product at a moment",
        "parameters": [
          {
            "name": "at",
            "in": "query",
            "description": "A day (taken at its end) or a date-time; default now.",
            "schema": {"$ref": "#/components/schemas/DateTimeInput"}
          }
        ],
        "responses": {
          "200": {
            "description": "The snapshot.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Snapshot"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/reports/daily": {
      "get": {
        "tags": ["reports"],
        "operationId": "dailyReport",
        "summary": "Sales figures per day",
        "description": "`date` for one day, or `from` and `to` (at most ten years); default today.",
        "parameters": [
          {"name": "date", "in": "query", "schema": {"$ref": "#/components/schemas/DayInput"}},
          {"name": "from", "in": "query", "schema": {"$ref": "#/components/schemas/DayInput"}},
          {"name": "to", "in": "query", "schema": {"$ref": "#/components/schemas/DayInput"}}
        ],
        "responses": {
          "200": {
            "description": "One entry per day.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/DailyReport"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/reports/top": {
      "get": {
        "tags": ["reports"],
        "operationId": "topProducts",
        "summary": "Best sellers in a period (default the last 30 days)",
        "parameters": [
          {"name": "from", "in": "query", "schema": {"$ref": "#/components/schemas/DateTimeInput"}},
          {"name": "to", "in": "query", "schema": {"$ref": "#/components/schemas/DateTimeInput"}},
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 10}},
          {"name": "by", "in": "query", "schema": {"type": "string", "enum": ["quantity", "revenue"], "default": "quantity"}}
        ],
        "responses": {
          "200": {
            "description": "Products, best first.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/TopProduct"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/reports/low-stock": {
      "get": {
        "tags": ["reports"],
        "operationId": "lowStock",
        "summary": "Products at or below their threshold",
        "responses": {
          "200": {
            "description": "Low and out-of-stock products.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/LowStock"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/reports/valuation": {
      "get": {
        "tags": ["reports"],
        "operationId": "valuation",
        "summary": "Stock value per category",
        "responses": {
          "200": {
            "description": "One entry per category (and one without).",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Valuation"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/reports/expiring": {
      "get": {
        "tags": ["reports"],
        "operationId": "expiringLots",
        "summary": "Lots in stock that expire within `days` days",
        "parameters": [
          {"name": "days", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 3650, "default": 3}}
        ],
        "responses": {
          "200": {
            "description": "Lots by expiry date.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/ExpiringLot"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/export/{kind}": {
      "get": {
        "tags": ["data"],
        "operationId": "exportCSV",
        "summary": "Download a CSV export",
        "parameters": [
          {
            "name": "kind",
            "in": "path",
            "required": true,
            "schema": {
              "type": "string",
              "enum": [
                "products",
                "suppliers",
                "customers",
                "purchases",
                "sales",
                "movements",
                "products.csv",
                "suppliers.csv",
                "customers.csv",
                "purchases.csv",
                "sales.csv",
                "movements.csv"
              ]
            }
          }
        ],
        "responses": {
          "200": {"description": "The CSV file (attachment).", "content": {"text/csv": {"schema": {"type": "string"}}}},
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/import/products": {
      "post": {
        "tags": ["data"],
        "operationId": "importProducts",
        "summary": "Create or update products from CSV (admin)",
        "description": "All rows are checked first: one bad row refuses the whole file (422 with `errors`, one per problem) and nothing is written. With `dryRun=true` the plan is returned and nothing is written.",
        "parameters": [{"name": "dryRun", "in": "query", "schema": {"type": "boolean", "default": false}}],
        "requestBody": {
          "required": true,
          "content": {"text/csv": {"schema": {"type": "string"}}, "text/plain": {"schema": {"type": "string"}}}
        },
        "responses": {
          "200": {
            "description": "What was (or would be) created and updated.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ImportResult"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/backup": {
      "get": {
        "tags": ["data"],
        "operationId": "backup",
        "summary": "Download a consistent copy of the live database (admin)",
        "responses": {
          "200": {
            "description": "An SQLite database file (attachment).",
            "content": {"application/vnd.sqlite3": {"schema": {"type": "string", "format": "binary"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/restore": {
      "post": {
        "tags": ["data"],
        "operationId": "restore",
        "summary": "Replace the shop's data with a backup (admin)",
        "description": "The body is a database file from GET /api/v1/backup; anything else is refused and the data stays as it was.",
        "requestBody": {
          "required": true,
          "content": {
            "application/vnd.sqlite3": {"schema": {"type": "string", "format": "binary"}},
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
          }
        },
        "responses": {
          "200": {
            "description": "Restored.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Restored"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/settings": {
      "get": {
        "tags": ["settings"],
        "operationId": "getSettings",
        "summary": "The shop's settings",
        "responses": {"200": {"$ref": "#/components/responses/Settings"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      },
      "put": {
        "tags": ["settings"],
        "operationId": "updateSettings",
        "summary": "Replace the shop's settings (admin)",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Settings"}}}},
        "responses": {"200": {"$ref": "#/components/responses/Settings"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/barcodes/decode": {
      "post": {
        "tags": ["barcodes"],
        "operationId": "decodeBarcodes",
        "summary": "Read the barcodes in a picture or camera frame",
        "description": "The body is a PNG or JPEG image (at most 12000 pixels a side and 40 megapixels, checked on its header before decoding: 422 on `body` beyond), or with `width` and `height` a raw 8-bit grayscale frame of width × height bytes (at most 8192 × 8192).",
        "parameters": [
          {"name": "width", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 8192}},
          {"name": "height", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 8192}}
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            "image/png": {"schema": {"type": "string", "format": "binary"}},
            "image/jpeg": {"schema": {"type": "string", "format": "binary"}}
          }
        },
        "responses": {
          "200": {
            "description": "The codes found, each with its product when one has that barcode.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DecodeResult"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/status": {
      "get": {
        "tags": ["auth"],
        "operationId": "authStatus",
        "summary": "Whether the first admin is still to be created, and who is signed in",
        "security": [{}, {"bearerAuth": []}, {"sessionCookie": []}],
        "responses": {
          "200": {
            "description": "The status.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AuthStatus"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/setup": {
      "post": {
        "tags": ["auth"],
        "operationId": "setup",
        "summary": "First run: create the admin and sign in",
        "description": "Only while no account exists (409 after). Answers with the session cookie and the CSRF token.",
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": ["username", "password"],
                "properties": {
                  "username": {"$ref": "#/components/schemas/Username"},
                  "displayName": {"type": "string"},
                  "password": {"$ref": "#/components/schemas/Password"},
                  "pin": {"$ref": "#/components/schemas/PIN"}
                },
                "additionalProperties": false
              }
            }
          }
        },
        "responses": {"201": {"$ref": "#/components/responses/SignedIn"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/auth/login": {
      "post": {
        "tags": ["auth"],
        "operationId": "login",
        "summary": "Sign in with username and password",
        "description": "Repeated wrong passwords slow down (429 slowDown) and then lock out (429 lockedOut), per account and per client address.",
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": ["username", "password"],
                "properties": {"username": {"type": "string"}, "password": {"type": "string"}},
                "additionalProperties": false
              }
            }
          }
        },
        "responses": {"200": {"$ref": "#/components/responses/SignedIn"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/auth/logout": {
      "post": {
        "tags": ["auth"],
        "operationId": "logout",
        "summary": "End the session (with a bearer token: revoke the token)",
        "responses": {
          "204": {"description": "Signed out; the cookie is cleared."},
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/me": {
      "get": {
        "tags": ["auth"],
        "operationId": "me",
        "summary": "The signed-in user and the session's CSRF token",
        "responses": {
          "200": {
            "description": "Who is signed in.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SignedIn"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/lock": {
      "post": {
        "tags": ["auth"],
        "operationId": "lock",
        "summary": "Lock the till (browser sessions only)",
        "responses": {
          "204": {"description": "Locked; only auth/pin, auth/me and auth/logout answer until a PIN unlocks it."},
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/pin": {
      "post": {
        "tags": ["auth"],
        "operationId": "unlockWithPIN",
        "summary": "Unlock the till or switch its user with a PIN (browser sessions only)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": ["username", "pin"],
                "properties": {"username": {"type": "string"}, "pin": {"$ref": "#/components/schemas/PIN"}},
                "additionalProperties": false
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Unlocked.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SignedIn"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/clock-in": {
      "post": {
        "tags": ["auth"],
        "operationId": "clockIn",
        "summary": "Start a shift for the signed-in user",
        "responses": {
          "201": {
            "description": "The open shift.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Shift"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/auth/clock-out": {
      "post": {
        "tags": ["auth"],
        "operationId": "clockOut",
        "summary": "End the signed-in user's open shift",
        "responses": {
          "200": {
            "description": "The ended shift.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Shift"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/users": {
      "get": {
        "tags": ["users"],
        "operationId": "listUsers",
        "summary": "Staff accounts (admin)",
        "responses": {
          "200": {
            "description": "Accounts.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/User"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "post": {
        "tags": ["users"],
        "operationId": "createUser",
        "summary": "Create a staff account (admin)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {"allOf": [{"$ref": "#/components/schemas/UserRequest"}], "required": ["username", "password"]}
            }
          }
        },
        "responses": {"201": {"$ref": "#/components/responses/User"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/users/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "put": {
        "tags": ["users"],
        "operationId": "updateUser",
        "summary": "Change a staff account (admin); an empty pin removes the PIN",
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UserRequest"}}}
        },
        "responses": {"200": {"$ref": "#/components/responses/User"}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/tokens": {
      "get": {
        "tags": ["tokens"],
        "operationId": "listTokens",
        "summary": "API tokens (admin); the secrets are never shown again",
        "responses": {
          "200": {
            "description": "Tokens.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Token"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      },
      "post": {
        "tags": ["tokens"],
        "operationId": "createToken",
        "summary": "Create an API token (admin), for the caller or for `userId`",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "required": ["name"],
                "properties": {
                  "name": {"type": "string", "minLength": 1},
                  "userId": {"$ref": "#/components/schemas/Id"},
                  "expiresInDays": {"type": "integer", "minimum": 1, "maximum": 3660, "description": "Days until the token stops working; absent: until revoked."}
                },
                "additionalProperties": false
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The token; `token` is the secret, shown only now.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Token"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/tokens/{id}": {
      "parameters": [{"$ref": "#/components/parameters/Id"}],
      "delete": {
        "tags": ["tokens"],
        "operationId": "revokeToken",
        "summary": "Revoke an API token (admin)",
        "responses": {"204": {"description": "Revoked."}, "4XX": {"$ref": "#/components/responses/Problem"}}
      }
    },
    "/api/v1/audit": {
      "get": {
        "tags": ["audit"],
        "operationId": "auditLog",
        "summary": "Who changed what, newest first (admin)",
        "parameters": [
          {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}},
          {"$ref": "#/components/parameters/Offset"}
        ],
        "responses": {
          "200": {
            "description": "Entries.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/AuditEntry"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/shifts": {
      "get": {
        "tags": ["auth"],
        "operationId": "listShifts",
        "summary": "Shifts of the last `days` days: staff see their own, managers and admins everyone's",
        "parameters": [
          {"name": "days", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 3660, "default": 31}}
        ],
        "responses": {
          "200": {
            "description": "Shifts.",
            "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Shift"}}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/v1/events": {
      "get": {
        "tags": ["events"],
        "operationId": "liveEvents",
        "summary": "Live events as Server-Sent Events (any signed-in user)",
        "description": "An endless `text/event-stream`: `event: sale` and `event: product` with `data: {\"method\": …, \"path\": …}` after each change to the books or the catalogue, and `event: low-stock` with `data: {\"count\": …, \"items\": [{\"productId\", \"name\", \"quantity\", \"status\"}]}` when the low-stock list changes. A comment line (`: ping`) every 15 s keeps proxies from closing it.",
        "responses": {
          "200": {
            "description": "The event stream; it ends only when the client goes away or the server shuts down.",
            "content": {"text/event-stream": {"schema": {"type": "string"}}}
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/images/{name}": {
      "get": {
        "tags": ["products"],
        "operationId": "productImage",
        "summary": "A product picture (content-addressed; cached for a year, with an ETag)",
        "security": [],
        "parameters": [
          {"name": "name", "in": "path", "required": true, "schema": {"type": "string"}},
          {"name": "If-None-Match", "in": "header", "schema": {"type": "string"}}
        ],
        "responses": {
          "200": {
            "description": "The picture.",
            "headers": {"ETag": {"schema": {"type": "string"}}, "Cache-Control": {"schema": {"type": "string"}}},
            "content": {
              "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
              "image/png": {"schema": {"type": "string", "format": "binary"}}
            }
          },
          "304": {"description": "Not modified (the If-None-Match ETag matches)."},
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/public/get": {
      "get": {
        "tags": ["public"],
        "operationId": "publicProducts",
        "summary": "The iOS client's product list (only with `serve --public-api`; no credentials)",
        "security": [],
        "responses": {
          "200": {
            "description": "Every active product.",
            "content": {
              "application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/PublicProduct"}}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    },
    "/api/public/add": {
      "post": {
        "tags": ["public"],
        "operationId": "publicAddProduct",
        "summary": "The iOS client's add-product form (only with `serve --public-api`; no credentials)",
        "description": "`product_type` names a category, created when new. Bad input answers 400 with `success: false` and a message saying what is wrong, and adds nothing.",
        "security": [],
        "requestBody": {
          "required": true,
          "content": {
            "multipart/form-data": {
              "schema": {
                "type": "object",
                "required": ["product_name", "product_type", "price", "tax"],
                "properties": {
                  "product_name": {"type": "string"},
                  "product_type": {"type": "string"},
                  "price": {"type": "string", "description": "Price before tax, a decimal number."},
                  "tax": {"type": "string", "description": "Tax rate in percent."},
                  "files[]": {
                    "type": "array",
                    "items": {"type": "string", "format": "binary"},
                    "description": "JPEG or PNG pictures; the first is kept."
                  }
                }
              },
              "encoding": {"files[]": {"contentType": "image/jpeg, image/png"}}
            }
          }
        },
        "responses": {
          "200": {
            "description": "Added.",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PublicAddResult"}}}
          },
          "400": {
            "description": "Refused: `success` is false and `message` says why; or a problem document.",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/PublicAddResult"}},
              "application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}
            }
          },
          "4XX": {"$ref": "#/components/responses/Problem"}
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {"type": "http", "scheme": "bearer", "description": "An API token from POST /api/v1/tokens."},
      "sessionCookie": {
        "type": "apiKey",
        "in": "cookie",
        "name": "stockroom_session",
        "description": "The HttpOnly, SameSite=Strict session cookie set by auth/setup and auth/login."
      },
      "csrfToken": {
        "type": "apiKey",
        "in": "header",
        "name": "X-CSRF-Token",
        "description": "With a session cookie, every request other than GET and HEAD carries the csrfToken from sign-in."
      }
    },
    "parameters": {
      "IdempotencyKey": {
        "name": "Idempotency-Key",
        "in": "header",
        "description": "A key of the client's choosing (a UUID is a good one) that makes the POST safe to retry: the same key from the same user with the same request answers the document booked the first time (201, `Idempotent-Replayed: true`) and books nothing; with a different request it is refused (409). Keys are kept 48 hours.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[!-~]+$"}
      },
      "DryRun": {
        "name": "dryRun",
        "in": "query",
        "description": "true: answer what the change would book, store nothing.",
        "schema": {"type": "boolean", "default": false}
      },
      "Id": {"name": "id", "in": "path", "required": true, "schema": {"$ref": "#/components/schemas/Id"}},
      "Limit500": {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50}},
      "Offset": {
        "name": "offset",
        "in": "query",
        "schema": {"type": "integer", "minimum": 0, "maximum": 2147483647, "default": 0}
      }
    },
    "requestBodies": {
      "Product": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ProductRequest"}}}},
      "Category": {
        "required": true,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CategoryRequest"}}}
      },
      "Contact": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ContactRequest"}}}},
      "Purchase": {
        "required": true,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PurchaseRequest"}}}
      },
      "Sale": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SaleRequest"}}}}
    },
    "responses": {
      "Problem": {
        "description": "The request was refused: the problem names the field and the reason.",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "Product": {
        "description": "The product.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Product"}}}
      },
      "Category": {
        "description": "The category.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Category"}}}
      },
      "Contact": {
        "description": "The contact.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Contact"}}}
      },
      "ContactList": {
        "description": "Contacts by name.",
        "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Contact"}}}}
      },
      "DocumentSummaries": {
        "description": "Documents, newest first.",
        "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/DocumentSummary"}}}}
      },
      "Purchase": {
        "description": "The purchase.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Purchase"}}}
      },
      "Sale": {"description": "The sale.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Sale"}}}},
      "Created": {
        "description": "Recorded.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Created"}}}
      },
      "Settings": {
        "description": "The settings.",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Settings"}}}
      },
      "SignedIn": {
        "description": "Signed in.",
        "headers": {
          "Set-Cookie": {
            "description": "The session cookie `stockroom_session` (HttpOnly, SameSite=Strict).",
            "schema": {"type": "string"}
          }
        },
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/SignedIn"}}}
      },
      "User": {"description": "The account.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}
    },
    "schemas": {
      "Id": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 9223372036854775807},
      "Decimal": {
        "type": "string",
        "pattern": "^-?[0-9]+(\\.[0-9]+)?$",
        "description": "A decimal number as text.",
        "examples": ["12.50"]
      },
      "MoneyInput": {
        "type": "string",
        "pattern": "^[+-]?[0-9]{1,7}([.,][0-9]{1,2})?$",
        "description": "An amount with at most the currency's decimals; at most 1,000,000,000 minor units (10,000,000.00 in EUR).",
        "examples": ["4.50"]
      },
      "QuantityInput": {
        "type": "string",
        "pattern": "^[+-]?[0-9]{1,6}([.,][0-9]{1,3})?$",
        "description": "A quantity with at most 3 decimals, at most 1,000,000 in size.",
        "examples": ["2", "0.5"]
      },
      "PercentInput": {
        "type": "string",
        "pattern": "^[0-9]{1,5}([.,][0-9]{1,2})?%?$",
        "description": "A percentage from 0 to 100000 with at most 2 decimals.",
        "examples": ["7.5"]
      },
      "DateTime": {"type": "string", "format": "date-time", "description": "UTC with milliseconds (`2026-01-20T10:00:00.100Z`), exact: sent back unchanged it is the same instant.", "examples": ["2026-01-20T10:00:00.100Z"]},
      "DateTimeInput": {
        "type": "string",
        "description": "`2026-11-22`, `2026-11-22T14:30` (shop time) or `2026-11-22T14:30:00.000Z` (any offset). Exact to the millisecond; a finer fraction is refused. Years 0001–9999.",
        "examples": ["2026-11-22T14:30:00Z"]
      },
      "DayInput": {
        "type": "string",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        "description": "A day, YYYY-MM-DD.",
        "examples": ["2026-11-22"]
      },
      "Username": {
        "type": "string",
        "pattern": "^[A-Za-z0-9._-]{2,40}$",
        "description": "2 to 40 letters, digits, '.', '-' or '_'."
      },
      "Password": {"type": "string", "minLength": 8, "description": "At least 8 characters, at most 72 bytes."},
      "PIN": {"type": "string", "pattern": "^[0-9]{4,8}$"},
      "StockStatus": {
        "type": "string",
        "enum": ["in_stock", "low", "out", "not_tracked"],
        "description": "not_tracked: the product does not track stock. out: a tracked product with 0 or less in stock. low: above 0 and at or below its effective threshold (its own, else its category's, else the shop's lowStockDefault; 0 means warn only when out). in_stock: above it."
      },
      "Role": {"type": "string", "enum": ["staff", "manager", "admin"]},
      "Permission": {
        "type": "string",
        "enum": [
          "sell",
          "scan",
          "viewCatalogue",
          "clockInOut",
          "purchase",
          "editCatalogue",
          "adjustStock",
          "viewReports",
          "sellBelowMinimum",
          "refund",
          "manageUsers",
          "manageSettings",
          "deleteTransactions",
          "importData",
          "backup",
          "manageTokens",
          "viewAudit"
        ]
      },
      "AdjustmentReason": {
        "type": "string",
        "enum": ["initial", "count", "damage", "expired", "return", "correction", "transfer"]
      },
      "Problem": {
        "type": "object",
        "description": "RFC 9457 problem details.",
        "required": ["type", "title", "status", "detail", "code"],
        "additionalProperties": false,
        "properties": {
          "type": {"type": "string", "format": "uri"},
          "title": {"type": "string"},
          "status": {"type": "integer", "minimum": 400, "maximum": 599},
          "detail": {"type": "string"},
          "field": {
            "type": "string",
            "description": "The input field at fault (a JSON path like `lines[0].quantity`, a query parameter or a path parameter)."
          },
          "code": {
            "type": "string",
            "description": "A stable code: invalidValue, missingValue, malformedJSON, notFound, duplicate, inUse, conflict, insufficientStock, unauthenticated, forbidden, csrf, locked, wrongCredentials, slowDown, lockedOut, tooLarge, invalidImport …"
          },
          "errors": {
            "type": "array",
            "description": "For a refused import: every problem with its CSV line.",
            "items": {
              "type": "object",
              "required": ["line", "message"],
              "additionalProperties": false,
              "properties": {"line": {"type": "integer"}, "field": {"type": "string"}, "message": {"type": "string"}}
            }
          },
          "document": {
            "type": "object",
            "description": "For insufficientStock when the line going short is not one of the request's (then `field` is absent, or names the setting at fault): the stored document line the change would leave short — e.g. deleting a purchase, lowering its quantity, or a back-dated sale that leaves a later sale short. `line` counts from 1; `date` is the document's day in the shop's time zone; `missing` is the quantity it would lack.",
            "required": ["kind", "id", "line", "date", "productId", "productName", "missing"],
            "additionalProperties": false,
            "properties": {
              "kind": {"type": "string", "enum": ["purchase", "sale", "adjustment", "customerReturn", "supplierReturn"]},
              "id": {"$ref": "#/components/schemas/Id"},
              "line": {"type": "integer", "minimum": 1},
              "date": {"type": "string", "format": "date"},
              "productId": {"$ref": "#/components/schemas/Id"},
              "productName": {"type": "string"},
              "missing": {"$ref": "#/components/schemas/Decimal"}
            }
          }
        }
      },
      "ProductPatch": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "name": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
          "sku": {"type": ["string", "null"], "maxLength": 64},
          "barcode": {"type": ["string", "null"]},
          "categoryId": {"oneOf": [{"$ref": "#/components/schemas/Id"}, {"type": "null"}]},
          "unit": {"type": "string", "maxLength": 20},
          "iconEmoji": {"type": ["string", "null"]},
          "salePrice": {"$ref": "#/components/schemas/NonNegativeMoneyInput"},
          "minimumSalePrice": {"oneOf": [{"$ref": "#/components/schemas/NonNegativeMoneyInput"}, {"type": "null"}]},
          "taxRate": {"$ref": "#/components/schemas/TaxRateInput"},
          "lowStockThreshold": {"oneOf": [{"$ref": "#/components/schemas/NonNegativeQuantityInput"}, {"type": "null"}]},
          "tracksStock": {"type": "boolean"},
          "allowsNegativeStock": {"type": "boolean"},
          "archived": {"type": "boolean"}
        }
      },
      "ProductRequest": {
        "type": "object",
        "required": ["name"],
        "additionalProperties": false,
        "properties": {
          "name": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
          "sku": {"type": "string", "maxLength": 64},
          "barcode": {"type": "string", "description": "UPC/EAN/GTIN or any code the shop prints; UPC-A and EAN are normalised."},
          "categoryId": {"$ref": "#/components/schemas/Id"},
          "unit": {"type": "string", "maxLength": 20, "examples": ["pcs", "kg"]},
          "iconEmoji": {"type": "string"},
          "salePrice": {"$ref": "#/components/schemas/NonNegativeMoneyInput"},
          "minimumSalePrice": {
            "$ref": "#/components/schemas/NonNegativeMoneyInput",
            "description": "Not above salePrice; selling below it needs a manager."
          },
          "taxRate": {"$ref": "#/components/schemas/TaxRateInput"},
          "lowStockThreshold": {"$ref": "#/components/schemas/NonNegativeQuantityInput"},
          "tracksStock": {"type": "boolean"},
          "allowsNegativeStock": {"type": "boolean"},
          "archived": {"type": "boolean"}
        }
      },
      "Product": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "name",
          "unit",
          "iconEmoji",
          "salePrice",
          "taxRate",
          "tracksStock",
          "allowsNegativeStock",
          "archived",
          "averageCost",
          "averageCostExact",
          "costPrice",
          "quantity",
          "stockValue",
          "status",
          "effectiveLowStockThreshold",
          "createdAt",
          "updatedAt"
        ],
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "sku": {"type": "string"},
          "barcode": {"type": "string"},
          "categoryId": {"$ref": "#/components/schemas/Id"},
          "unit": {"type": "string"},
          "imageRef": {"type": "string"},
          "iconEmoji": {"type": "string"},
          "salePrice": {"$ref": "#/components/schemas/Decimal"},
          "minimumSalePrice": {"$ref": "#/components/schemas/Decimal"},
          "taxRate": {"$ref": "#/components/schemas/Decimal"},
          "lowStockThreshold": {"$ref": "#/components/schemas/Decimal", "description": "The product's own threshold; absent when it takes its category's, else the shop's default."},
          "effectiveLowStockThreshold": {
            "$ref": "#/components/schemas/Decimal",
            "description": "The threshold that decides `status`: the product's own, else its category's, else the shop's `lowStockDefault`."
          },
          "tracksStock": {"type": "boolean"},
          "allowsNegativeStock": {"type": "boolean"},
          "archived": {"type": "boolean"},
          "averageCost": {"$ref": "#/components/schemas/Decimal", "description": "The average cost: stock value ÷ quantity rounded once to the minor unit, which is what one unit issued now books. With nothing on hand, the last average."},
          "averageCostExact": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$", "description": "The same average at full precision: value ÷ quantity with four decimals beyond the currency's, as the ledger keeps it (`0.255000` in EUR)."},
          "costPrice": {"$ref": "#/components/schemas/Decimal", "description": "`averageCost` under its former name, kept for existing clients."},
          "quantity": {"$ref": "#/components/schemas/Decimal"},
          "stockValue": {"$ref": "#/components/schemas/Decimal"},
          "status": {"$ref": "#/components/schemas/StockStatus"},
          "createdAt": {"$ref": "#/components/schemas/DateTime"},
          "updatedAt": {"$ref": "#/components/schemas/DateTime"}
        }
      },
      "ProductPage": {
        "type": "object",
        "required": ["items", "total", "limit", "offset"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/Product"}},
          "total": {"type": "integer", "minimum": 0},
          "limit": {"type": "integer"},
          "offset": {"type": "integer"}
        }
      },
      "Movement": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "kind",
          "documentId",
          "effectiveAt",
          "recordedAt",
          "quantity",
          "valueChange",
          "costAdjustment",
          "quantityAfter",
          "valueAfter",
          "averageCostAfter",
          "averageCostAfterExact"
        ],
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "kind": {"type": "string", "enum": ["purchase", "sale", "adjustment", "customerReturn", "supplierReturn"]},
          "reason": {"$ref": "#/components/schemas/AdjustmentReason"},
          "documentId": {"type": "integer", "format": "int64"},
          "effectiveAt": {"$ref": "#/components/schemas/DateTime"},
          "recordedAt": {"$ref": "#/components/schemas/DateTime"},
          "quantity": {"$ref": "#/components/schemas/Decimal"},
          "valueChange": {"$ref": "#/components/schemas/Decimal"},
          "costAdjustment": {"$ref": "#/components/schemas/Decimal"},
          "quantityAfter": {"$ref": "#/components/schemas/Decimal"},
          "valueAfter": {"$ref": "#/components/schemas/Decimal"},
          "averageCostAfter": {"$ref": "#/components/schemas/Decimal", "description": "The average cost after the movement, rounded once (see Product.averageCost)."},
          "averageCostAfterExact": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$", "description": "The same average at full precision: value ÷ quantity with four decimals beyond the currency's, as the ledger keeps it (`0.255000` in EUR)."}
        }
      },
      "CategoryRequest": {
        "type": "object",
        "required": ["name"],
        "additionalProperties": false,
        "properties": {
          "name": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "\\S"},
          "color": {"type": "string", "pattern": "^\\s*#[0-9a-fA-F]{6}\\s*$", "examples": ["#92400e"]},
          "lowStockThreshold": {"$ref": "#/components/schemas/NonNegativeQuantityInput"},
          "markup": {"$ref": "#/components/schemas/PercentInput"}
        }
      },
      "Category": {
        "type": "object",
        "required": ["id", "name", "color", "markup"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "color": {"type": "string"},
          "lowStockThreshold": {"$ref": "#/components/schemas/Decimal"},
          "markup": {"$ref": "#/components/schemas/Decimal"}
        }
      },
      "ContactRequest": {
        "type": "object",
        "required": ["name"],
        "additionalProperties": false,
        "properties": {
          "name": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
          "location": {"type": "string"},
          "phone": {"type": "string", "pattern": "^[0-9 +()./-]*$", "examples": ["+49 40 123"]},
          "email": {"type": "string", "pattern": "^\\s*([^@\\s]+@[^@\\s]+\\.[^@\\s]+)?\\s*$", "examples": ["ada@example.com"]},
          "note": {"type": "string"}
        }
      },
      "Contact": {
        "type": "object",
        "required": ["id", "name", "location", "phone", "email", "note"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "location": {"type": "string"},
          "phone": {"type": "string"},
          "email": {"type": "string"},
          "note": {"type": "string"}
        }
      },
      "PurchaseRequest": {
        "type": "object",
        "required": ["lines"],
        "additionalProperties": false,
        "properties": {
          "effectiveAt": {"$ref": "#/components/schemas/DateTimeInput"},
          "supplierId": {"$ref": "#/components/schemas/Id"},
          "note": {"type": "string"},
          "lines": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "required": ["quantity", "unitCost"],
              "additionalProperties": false,
              "description": "Give either productId or newProduct.",
              "properties": {
                "productId": {"$ref": "#/components/schemas/Id"},
                "newProduct": {"$ref": "#/components/schemas/ProductRequest"},
                "quantity": {"$ref": "#/components/schemas/QuantityInput"},
                "unitCost": {"$ref": "#/components/schemas/MoneyInput"},
                "lotCode": {"type": "string"},
                "expiryDate": {"$ref": "#/components/schemas/DayInput"}
              }
            },
            "maxItems": 1000
          }
        }
      },
      "Purchase": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "effectiveAt", "recordedAt", "note", "total", "lines"],
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "effectiveAt": {"$ref": "#/components/schemas/DateTime"},
          "recordedAt": {"$ref": "#/components/schemas/DateTime"},
          "supplierId": {"$ref": "#/components/schemas/Id"},
          "supplierName": {"type": "string"},
          "note": {"type": "string"},
          "total": {"$ref": "#/components/schemas/Decimal"},
          "lines": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["id", "productId", "productName", "quantity", "unitCost", "amount", "averageCostAfter", "averageCostAfterExact"],
              "properties": {
                "id": {"$ref": "#/components/schemas/Id"},
                "productId": {"$ref": "#/components/schemas/Id"},
                "productName": {"type": "string"},
                "quantity": {"$ref": "#/components/schemas/Decimal"},
                "unitCost": {"$ref": "#/components/schemas/Decimal"},
                "amount": {"$ref": "#/components/schemas/Decimal"},
                "lotCode": {"type": "string"},
                "expiryDate": {"type": "string", "format": "date"},
                "averageCostAfter": {"$ref": "#/components/schemas/Decimal", "description": "The product's average cost after the line, rounded once (see Product.averageCost)."},
                "averageCostAfterExact": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$", "description": "The same average at full precision: value ÷ quantity with four decimals beyond the currency's, as the ledger keeps it (`0.255000` in EUR)."}
              }
            }
          }
        }
      },
      "SaleRequest": {
        "type": "object",
        "required": ["lines"],
        "additionalProperties": false,
        "properties": {
          "effectiveAt": {"$ref": "#/components/schemas/DateTimeInput"},
          "customerId": {"$ref": "#/components/schemas/Id"},
          "note": {"type": "string"},
          "tip": {"$ref": "#/components/schemas/MoneyInput"},
          "paymentMethod": {"type": "string", "enum": ["cash", "card", "other"], "default": "cash"},
          "cashTendered": {"$ref": "#/components/schemas/MoneyInput"},
          "lines": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "required": ["productId", "quantity"],
              "additionalProperties": false,
              "properties": {
                "productId": {"$ref": "#/components/schemas/Id"},
                "quantity": {"$ref": "#/components/schemas/QuantityInput"},
                "unitPrice": {"$ref": "#/components/schemas/MoneyInput"},
                "discount": {"$ref": "#/components/schemas/MoneyInput"},
                "taxRate": {"$ref": "#/components/schemas/PercentInput"}
              }
            },
            "maxItems": 1000
          }
        }
      },
      "Sale": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "effectiveAt",
          "recordedAt",
          "note",
          "paymentMethod",
          "revenue",
          "tax",
          "tip",
          "total",
          "costOfGoodsSold",
          "profit",
          "soldBy",
          "lines"
        ],
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "effectiveAt": {"$ref": "#/components/schemas/DateTime"},
          "recordedAt": {"$ref": "#/components/schemas/DateTime"},
          "soldBy": {"type": "string", "description": "Username of who rang the sale up (empty when not known)."},
          "cashTendered": {"$ref": "#/components/schemas/Decimal"},
          "change": {"$ref": "#/components/schemas/Decimal"},
          "customerId": {"$ref": "#/components/schemas/Id"},
          "customerName": {"type": "string"},
          "note": {"type": "string"},
          "paymentMethod": {"type": "string", "enum": ["cash", "card", "other"]},
          "revenue": {"$ref": "#/components/schemas/Decimal"},
          "tax": {"$ref": "#/components/schemas/Decimal"},
          "tip": {"$ref": "#/components/schemas/Decimal"},
          "total": {"$ref": "#/components/schemas/Decimal"},
          "costOfGoodsSold": {"$ref": "#/components/schemas/Decimal"},
          "profit": {"$ref": "#/components/schemas/Decimal"},
          "lines": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "id",
                "productId",
                "productName",
                "quantity",
                "unitPrice",
                "discount",
                "taxRate",
                "tax",
                "revenue",
                "costOfGoodsSold",
                "returnedQuantity"
              ],
              "properties": {
                "id": {"$ref": "#/components/schemas/Id"},
                "productId": {"$ref": "#/components/schemas/Id"},
                "productName": {"type": "string"},
                "quantity": {"$ref": "#/components/schemas/Decimal"},
                "unitPrice": {"$ref": "#/components/schemas/Decimal"},
                "discount": {"$ref": "#/components/schemas/Decimal"},
                "taxRate": {"$ref": "#/components/schemas/Decimal"},
                "tax": {"$ref": "#/components/schemas/Decimal"},
                "revenue": {"$ref": "#/components/schemas/Decimal"},
                "costOfGoodsSold": {"$ref": "#/components/schemas/Decimal"},
                "returnedQuantity": {"$ref": "#/components/schemas/Decimal"}
              }
            }
          }
        }
      },
      "DocumentSummary": {
        "type": "object",
        "required": ["id", "effectiveAt", "lineCount", "total", "note"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "effectiveAt": {"$ref": "#/components/schemas/DateTime"},
          "partyName": {"type": "string", "description": "The supplier's or customer's name."},
          "lineCount": {"type": "integer", "minimum": 0},
          "total": {"$ref": "#/components/schemas/Decimal"},
          "note": {"type": "string"}
        }
      },
      "CustomerReturnRequest": {
        "type": "object",
        "required": ["saleId", "lines"],
        "properties": {
          "effectiveAt": {"$ref": "#/components/schemas/DateTimeInput"},
          "saleId": {"$ref": "#/components/schemas/Id"},
          "note": {"type": "string"},
          "lines": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "required": ["saleLineId", "quantity"],
              "properties": {
                "saleLineId": {"$ref": "#/components/schemas/Id", "description": "The `id` of a line of the sale."},
                "quantity": {"$ref": "#/components/schemas/QuantityInput"}
              },
              "additionalProperties": false
            },
            "maxItems": 1000
          }
        },
        "additionalProperties": false
      },
      "SupplierReturnRequest": {
        "type": "object",
        "required": ["lines"],
        "properties": {
          "effectiveAt": {"$ref": "#/components/schemas/DateTimeInput"},
          "supplierId": {"$ref": "#/components/schemas/Id"},
          "note": {"type": "string"},
          "lines": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "required": ["productId", "quantity"],
              "properties": {
                "productId": {"$ref": "#/components/schemas/Id"},
                "quantity": {"$ref": "#/components/schemas/QuantityInput"}
              },
              "additionalProperties": false
            },
            "maxItems": 1000
          }
        },
        "additionalProperties": false
      },
      "AdjustmentRequest": {
        "type": "object",
        "required": ["productId", "quantityChange", "reason"],
        "properties": {
          "effectiveAt": {"$ref": "#/components/schemas/DateTimeInput"},
          "productId": {"$ref": "#/components/schemas/Id"},
          "quantityChange": {
            "$ref": "#/components/schemas/QuantityInput",
            "description": "Positive adds stock, negative removes it."
          },
          "reason": {"$ref": "#/components/schemas/AdjustmentReason"},
          "note": {"type": "string"},
          "unitCost": {
            "$ref": "#/components/schemas/MoneyInput",
            "description": "Cost of added stock; default the current average cost."
          }
        },
        "additionalProperties": false
      },
      "Created": {
        "type": "object",
        "required": ["id"],
        "additionalProperties": false,
        "properties": {"id": {"$ref": "#/components/schemas/Id"}}
      },
      "Snapshot": {
        "type": "object",
        "required": ["at", "totalQuantity", "totalValue", "lines"],
        "additionalProperties": false,
        "properties": {
          "at": {"$ref": "#/components/schemas/DateTime"},
          "totalQuantity": {"$ref": "#/components/schemas/Decimal"},
          "totalValue": {"$ref": "#/components/schemas/Decimal"},
          "lines": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["productId", "name", "quantity", "value", "averageCost", "averageCostExact"],
              "additionalProperties": false,
              "properties": {
                "productId": {"$ref": "#/components/schemas/Id"},
                "name": {"type": "string"},
                "quantity": {"$ref": "#/components/schemas/Decimal"},
                "value": {"$ref": "#/components/schemas/Decimal"},
                "averageCost": {"$ref": "#/components/schemas/Decimal", "description": "The average cost, rounded once (see Product.averageCost)."},
                "averageCostExact": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$", "description": "The same average at full precision: value ÷ quantity with four decimals beyond the currency's, as the ledger keeps it (`0.255000` in EUR)."}
              }
            }
          }
        }
      },
      "DailyReport": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "date",
          "grossSales",
          "discounts",
          "returns",
          "revenue",
          "tax",
          "tips",
          "costOfGoodsSold",
          "profit",
          "salesCount",
          "averageBasket"
        ],
        "properties": {
          "date": {"type": "string", "format": "date"},
          "grossSales": {"$ref": "#/components/schemas/Decimal"},
          "discounts": {"$ref": "#/components/schemas/Decimal"},
          "returns": {"$ref": "#/components/schemas/Decimal"},
          "revenue": {"$ref": "#/components/schemas/Decimal"},
          "tax": {"$ref": "#/components/schemas/Decimal"},
          "tips": {"$ref": "#/components/schemas/Decimal"},
          "costOfGoodsSold": {"$ref": "#/components/schemas/Decimal"},
          "profit": {"$ref": "#/components/schemas/Decimal"},
          "salesCount": {"type": "integer", "minimum": 0},
          "averageBasket": {"$ref": "#/components/schemas/Decimal"}
        }
      },
      "TopProduct": {
        "type": "object",
        "required": ["productId", "name", "quantity", "revenue"],
        "additionalProperties": false,
        "properties": {
          "productId": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "quantity": {"$ref": "#/components/schemas/Decimal"},
          "revenue": {"$ref": "#/components/schemas/Decimal"}
        }
      },
      "LowStock": {
        "type": "object",
        "required": ["productId", "name", "quantity", "threshold", "unit", "status"],
        "additionalProperties": false,
        "properties": {
          "productId": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "quantity": {"$ref": "#/components/schemas/Decimal"},
          "threshold": {"$ref": "#/components/schemas/Decimal"},
          "unit": {"type": "string"},
          "status": {"$ref": "#/components/schemas/StockStatus"}
        }
      },
      "Valuation": {
        "type": "object",
        "required": ["name", "productCount", "quantity", "value"],
        "additionalProperties": false,
        "properties": {
          "categoryId": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "productCount": {"type": "integer", "minimum": 0},
          "quantity": {"$ref": "#/components/schemas/Decimal"},
          "value": {"$ref": "#/components/schemas/Decimal"}
        }
      },
      "ExpiringLot": {
        "type": "object",
        "required": ["productId", "name", "expiryDate", "stockQuantity"],
        "additionalProperties": false,
        "properties": {
          "productId": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "lotCode": {"type": "string"},
          "expiryDate": {"type": "string", "format": "date"},
          "stockQuantity": {"$ref": "#/components/schemas/Decimal"}
        }
      },
      "Settings": {
        "type": "object",
        "required": ["shopName", "currency", "timeZone", "defaultTaxRate", "lowStockDefault", "lockMinutes"],
        "properties": {
          "shopName": {"type": "string"},
          "currency": {"type": "string", "pattern": "^[A-Z]{3}$", "description": "ISO 4217 code.", "examples": ["EUR"]},
          "timeZone": {"type": "string", "description": "IANA time zone.", "examples": ["Europe/Berlin"]},
          "defaultTaxRate": {"type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?%?$"},
          "lowStockDefault": {"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"},
          "lockMinutes": {
            "type": "integer",
            "minimum": 1,
            "maximum": 1440,
            "description": "Idle minutes before a till locks itself."
          }
        },
        "additionalProperties": false
      },
      "ImportResult": {
        "type": "object",
        "required": ["dryRun", "created", "updated", "unchanged", "newCategories", "rows"],
        "additionalProperties": false,
        "properties": {
          "dryRun": {"type": "boolean"},
          "created": {"type": "integer", "minimum": 0},
          "updated": {"type": "integer", "minimum": 0},
          "unchanged": {"type": "integer", "minimum": 0},
          "newCategories": {"type": "array", "items": {"type": "string"}},
          "rows": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["line", "action", "name", "changedFields"],
              "additionalProperties": false,
              "properties": {
                "line": {"type": "integer"},
                "action": {"type": "string", "enum": ["create", "update"]},
                "productId": {"$ref": "#/components/schemas/Id"},
                "name": {"type": "string"},
                "changedFields": {"type": "array", "items": {"type": "string"}}
              }
            }
          }
        }
      },
      "DecodeResult": {
        "type": "object",
        "required": ["width", "height", "milliseconds", "barcodes"],
        "additionalProperties": false,
        "properties": {
          "width": {"type": "integer", "minimum": 1},
          "height": {"type": "integer", "minimum": 1},
          "milliseconds": {"type": "integer", "minimum": 0},
          "barcodes": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["format", "text"],
              "additionalProperties": false,
              "properties": {
                "format": {"type": "string", "examples": ["ean13", "qr"]},
                "text": {"type": "string"},
                "product": {"$ref": "#/components/schemas/Product"}
              }
            }
          }
        }
      },
      "User": {
        "type": "object",
        "required": ["id", "username", "displayName", "role", "hasPIN", "active", "permissions"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "username": {"type": "string"},
          "displayName": {"type": "string"},
          "role": {"$ref": "#/components/schemas/Role"},
          "hasPIN": {"type": "boolean"},
          "active": {"type": "boolean"},
          "permissions": {"type": "array", "items": {"$ref": "#/components/schemas/Permission"}}
        }
      },
      "UserRequest": {
        "type": "object",
        "properties": {
          "username": {"$ref": "#/components/schemas/Username"},
          "displayName": {"type": "string"},
          "role": {"$ref": "#/components/schemas/Role"},
          "password": {"$ref": "#/components/schemas/Password"},
          "pin": {"type": "string", "pattern": "^([0-9]{4,8})?$"},
          "active": {"type": "boolean"}
        },
        "additionalProperties": false
      },
      "SignedIn": {
        "type": "object",
        "required": ["user", "csrfToken", "locked"],
        "additionalProperties": false,
        "properties": {
          "user": {"$ref": "#/components/schemas/User"},
          "csrfToken": {
            "type": "string",
            "description": "Send it as X-CSRF-Token with every change made with the session cookie."
          },
          "locked": {"type": "boolean"}
        }
      },
      "AuthStatus": {
        "type": "object",
        "required": ["setupRequired", "signedIn", "locked"],
        "additionalProperties": false,
        "properties": {
          "setupRequired": {"type": "boolean"},
          "signedIn": {"type": "boolean"},
          "locked": {"type": "boolean"},
          "user": {"$ref": "#/components/schemas/User"}
        }
      },
      "Token": {
        "type": "object",
        "required": ["id", "name", "userId", "createdAt", "lastSeenAt"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "name": {"type": "string"},
          "userId": {"$ref": "#/components/schemas/Id"},
          "createdAt": {"$ref": "#/components/schemas/DateTime"},
          "lastSeenAt": {"$ref": "#/components/schemas/DateTime"},
          "expiresAt": {"$ref": "#/components/schemas/DateTime", "description": "When the token stops working; absent: until revoked."},
          "token": {"type": "string", "description": "The secret; only in the answer to its creation."}
        }
      },
      "AuditEntry": {
        "type": "object",
        "required": ["id", "at", "username", "action", "detail"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "at": {"$ref": "#/components/schemas/DateTime"},
          "userId": {"$ref": "#/components/schemas/Id"},
          "username": {"type": "string"},
          "action": {"type": "string", "examples": ["POST /api/v1/sales"]},
          "detail": {"type": "string"}
        }
      },
      "UploadedImage": {
        "type": "object",
        "required": ["imageRef", "url", "width", "height", "square"],
        "additionalProperties": false,
        "properties": {
          "imageRef": {"type": "string"},
          "url": {"type": "string", "description": "Where the picture is served, e.g. /images/<imageRef>."},
          "width": {"type": "integer", "minimum": 1},
          "height": {"type": "integer", "minimum": 1},
          "square": {"type": "boolean", "description": "False when the picture is shown centre-cropped."}
        }
      },
      "Restored": {
        "type": "object",
        "required": ["restored", "products"],
        "additionalProperties": false,
        "properties": {
          "restored": {"type": "boolean"},
          "products": {"type": "integer", "minimum": 0, "description": "How many products the restored data has."}
        }
      },
      "PublicProduct": {
        "type": "object",
        "required": ["image", "price", "product_name", "product_type", "tax"],
        "additionalProperties": false,
        "properties": {
          "image": {"type": "string", "description": "Absolute URL of the picture, or empty."},
          "price": {"type": "number", "description": "Before tax."},
          "product_name": {"type": "string"},
          "product_type": {"type": "string"},
          "tax": {"type": "number", "description": "Percent."}
        }
      },
      "PublicAddResult": {
        "type": "object",
        "required": ["message", "success"],
        "additionalProperties": false,
        "properties": {
          "message": {"type": "string"},
          "product_details": {"$ref": "#/components/schemas/PublicProduct"},
          "product_id": {"type": "integer", "format": "int64"},
          "success": {"type": "boolean"}
        }
      },
      "Shift": {
        "type": "object",
        "required": ["id", "userId", "username", "startedAt", "minutes"],
        "additionalProperties": false,
        "properties": {
          "id": {"$ref": "#/components/schemas/Id"},
          "userId": {"$ref": "#/components/schemas/Id"},
          "username": {"type": "string"},
          "startedAt": {"$ref": "#/components/schemas/DateTime"},
          "endedAt": {"$ref": "#/components/schemas/DateTime", "description": "Absent while the shift is open."},
          "minutes": {"type": "integer", "minimum": 0, "description": "Whole minutes worked so far."}
        }
      },
      "NonNegativeMoneyInput": {
        "type": "string",
        "pattern": "^[+]?[0-9]{1,7}([.,][0-9]{1,2})?$",
        "description": "An amount of zero or more, with at most the currency's decimals.",
        "examples": ["4.50"]
      },
      "TaxRateInput": {
        "type": "string",
        "pattern": "^(100([.,]0{1,2})?|[0-9]{1,2}([.,][0-9]{1,2})?)%?$",
        "description": "A tax rate from 0 to 100 % with at most 2 decimals.",
        "examples": ["7.5"]
      },
      "NonNegativeQuantityInput": {
        "type": "string",
        "pattern": "^[+]?[0-9]{1,6}([.,][0-9]{1,3})?$",
        "description": "A quantity of zero or more with at most 3 decimals.",
        "examples": ["5"]
      }
    }
  }
}
"""#
}
