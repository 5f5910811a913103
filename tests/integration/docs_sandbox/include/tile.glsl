// Included by nothing: -I include must name a folder that exists.
