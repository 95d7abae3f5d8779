"""Words of the MADE UP scale corpus (scripts/make_corpus.py): crops, pests, diseases, districts,
months, products, in English, Hindi and Marathi. Data only; nothing here is advice.
"""
from __future__ import annotations

#: (English, Hindi, Marathi, group); the group picks the pests and diseases of a crop
CROPS: list[tuple[str, str, str, str]] = [
    ("cotton", "कपास", "कापूस", "fibre"), ("soybean", "सोयाबीन", "सोयाबीन", "oilseed"),
    ("pigeon pea", "अरहर", "तूर", "pulse"), ("chickpea", "चना", "हरभरा", "pulse"),
    ("wheat", "गेहूं", "गहू", "cereal"), ("paddy", "धान", "भात", "cereal"),
    ("sorghum", "ज्वार", "ज्वारी", "cereal"), ("pearl millet", "बाजरा", "बाजरी", "cereal"),
    ("maize", "मक्का", "मका", "cereal"), ("groundnut", "मूंगफली", "भुईमूग", "oilseed"),
    ("sunflower", "सूरजमुखी", "सूर्यफूल", "oilseed"), ("safflower", "कुसुम", "करडई", "oilseed"),
    ("sesame", "तिल", "तीळ", "oilseed"), ("mustard", "सरसों", "मोहरी", "oilseed"),
    ("sugarcane", "गन्ना", "ऊस", "fibre"), ("onion", "प्याज", "कांदा", "vegetable"),
    ("tomato", "टमाटर", "टोमॅटो", "vegetable"), ("brinjal", "बैंगन", "वांगी", "vegetable"),
    ("chilli", "मिर्च", "मिरची", "vegetable"), ("okra", "भिंडी", "भेंडी", "vegetable"),
    ("cabbage", "पत्तागोभी", "कोबी", "vegetable"), ("cauliflower", "फूलगोभी", "फुलकोबी", "vegetable"),
    ("potato", "आलू", "बटाटा", "vegetable"), ("garlic", "लहसुन", "लसूण", "vegetable"),
    ("ginger", "अदरक", "आले", "spice"), ("turmeric", "हल्दी", "हळद", "spice"),
    ("banana", "केला", "केळी", "fruit"), ("grape", "अंगूर", "द्राक्ष", "fruit"),
    ("pomegranate", "अनार", "डाळिंब", "fruit"), ("mango", "आम", "आंबा", "fruit"),
    ("guava", "अमरूद", "पेरू", "fruit"), ("papaya", "पपीता", "पपई", "fruit"),
    ("orange", "संतरा", "संत्रा", "fruit"), ("sweet lime", "मौसमी", "मोसंबी", "fruit"),
    ("custard apple", "सीताफल", "सीताफळ", "fruit"), ("cashew", "काजू", "काजू", "fruit"),
    ("coconut", "नारियल", "नारळ", "fruit"), ("green gram", "मूंग", "मूग", "pulse"),
    ("black gram", "उड़द", "उडीद", "pulse"), ("lentil", "मसूर", "मसूर", "pulse"),
    ("linseed", "अलसी", "जवस", "oilseed"), ("castor", "अरंडी", "एरंडी", "oilseed"),
    ("fenugreek", "मेथी", "मेथी", "spice"), ("coriander", "धनिया", "कोथिंबीर", "spice"),
    ("watermelon", "तरबूज", "कलिंगड", "vegetable"), ("cucumber", "खीरा", "काकडी", "vegetable"),
    ("bottle gourd", "लौकी", "दुधी भोपळा", "vegetable"), ("finger millet", "रागी", "नाचणी", "cereal"),
    ("cowpea", "लोबिया", "चवळी", "pulse"), ("cluster bean", "ग्वार", "गवार", "vegetable"),
]
#: crops that are in no document: the questions with no answer ask about them
ABSENT_CROPS = ["dragon fruit", "strawberry", "saffron", "kiwi fruit", "oil palm", "cardamom", "vanilla",
                "quinoa", "asparagus", "broccoli"]

#: (English, Hindi, Marathi, groups it attacks)
PESTS: list[tuple[str, str, str, str]] = [
    ("Whitefly", "सफेद मक्खी", "पांढरी माशी", "fibre oilseed pulse vegetable fruit"),
    ("Aphid", "माहू", "मावा", "fibre oilseed pulse vegetable fruit cereal spice"),
    ("Jassid", "जैसिड", "तुडतुडे", "fibre oilseed vegetable pulse"),
    ("Thrips", "थ्रिप्स", "फुलकिडे", "fibre oilseed vegetable fruit spice"),
    ("Red mite", "लाल मकड़ी", "लाल कोळी", "vegetable fruit fibre spice"),
    ("Mealybug", "मिलीबग", "पिठ्या ढेकूण", "fibre fruit vegetable"),
    ("Pod borer", "फली छेदक", "शेंगा पोखरणारी अळी", "pulse oilseed"),
    ("Stem borer", "तना छेदक", "खोड किडा", "cereal fibre"),
    ("Fruit borer", "फल छेदक", "फळ पोखरणारी अळी", "vegetable fruit"),
    ("Leaf miner", "पत्ती सुरंगक", "पाने पोखरणारी अळी", "vegetable oilseed pulse"),
    ("Armyworm", "सैनिक कीट", "लष्करी अळी", "cereal oilseed vegetable"),
    ("Semilooper", "सेमीलूपर इल्ली", "उंट अळी", "oilseed pulse"),
    ("Shoot fly", "तना मक्खी", "खोड माशी", "cereal oilseed"),
    ("Termite", "दीमक", "वाळवी", "cereal fibre fruit spice pulse"),
    ("White grub", "सफेद लट", "हुमणी", "cereal oilseed fibre vegetable spice"),
    ("Fruit fly", "फल मक्खी", "फळमाशी", "fruit vegetable"),
    ("Scale insect", "स्केल कीट", "खवले कीड", "fruit fibre"),
    ("Brown planthopper", "भूरा फुदका", "तपकिरी तुडतुडे", "cereal"),
    ("Leaf folder", "पत्ती लपेटक", "पाने गुंडाळणारी अळी", "cereal"),
    ("Pink bollworm", "गुलाबी सुंडी", "शेंदरी बोंडअळी", "fibre"),
    ("Girdle beetle", "गर्डल बीटल", "चक्री भुंगा", "oilseed pulse"),
    ("Psylla", "सिल्ला", "सायला", "fruit"),
]
#: (English, Hindi, Marathi)
DISEASES: list[tuple[str, str, str]] = [
    ("Powdery mildew", "चूर्णिल आसिता", "भुरी"), ("Downy mildew", "मृदुरोमिल आसिता", "केवडा"),
    ("Leaf spot", "पत्ती धब्बा", "पानांवरील ठिपके"), ("Rust", "गेरुआ", "तांबेरा"),
    ("Wilt", "उकठा", "मर रोग"), ("Blight", "झुलसा", "करपा"), ("Root rot", "जड़ सड़न", "मूळकूज"),
    ("Anthracnose", "एन्थ्रेक्नोज", "अँथ्रॅकनोज"), ("Damping off", "आर्द्र गलन", "रोप कोलमडणे"),
    ("Fruit rot", "फल सड़न", "फळकूज"),
]
FUNGICIDES = ["mancozeb", "carbendazim", "hexaconazole", "copper oxychloride", "propiconazole",
              "metalaxyl", "wettable sulphur", "tebuconazole", "azoxystrobin", "thiophanate-methyl"]
#: made-up product names (no real brand)
PRODUCTS = ["Kitnash 20 SL", "Rasshak 25 EC", "Fasalraksha 5 SC", "Pestoff 10 EC", "Sujal 30 WG",
            "Harit 15 SC", "Kavach 18 SL", "Annadata 40 EC", "Shetmitra 12 WG", "Krishimitra 22 SC"]
SEED_FUNGICIDES = ["thiram", "captan", "carbendazim", "Trichoderma", "carboxin", "metalaxyl"]

#: (English, Marathi/Hindi Devanagari spelling)
DISTRICTS: list[tuple[str, str]] = [
    ("Ahmednagar", "अहमदनगर"), ("Akola", "अकोला"), ("Amravati", "अमरावती"), ("Aurangabad", "औरंगाबाद"),
    ("Beed", "बीड"), ("Bhandara", "भंडारा"), ("Buldhana", "बुलढाणा"), ("Chandrapur", "चंद्रपूर"),
    ("Dhule", "धुळे"), ("Gadchiroli", "गडचिरोली"), ("Gondia", "गोंदिया"), ("Hingoli", "हिंगोली"),
    ("Jalgaon", "जळगाव"), ("Jalna", "जालना"), ("Kolhapur", "कोल्हापूर"), ("Latur", "लातूर"),
    ("Nagpur", "नागपूर"), ("Nanded", "नांदेड"), ("Nandurbar", "नंदुरबार"), ("Nashik", "नाशिक"),
    ("Osmanabad", "उस्मानाबाद"), ("Palghar", "पालघर"), ("Parbhani", "परभणी"), ("Pune", "पुणे"),
    ("Raigad", "रायगड"), ("Ratnagiri", "रत्नागिरी"), ("Sangli", "सांगली"), ("Satara", "सातारा"),
    ("Sindhudurg", "सिंधुदुर्ग"), ("Solapur", "सोलापूर"), ("Thane", "ठाणे"), ("Wardha", "वर्धा"),
    ("Washim", "वाशिम"), ("Yavatmal", "यवतमाळ"),
]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]
MONTHS_HI = ["जनवरी", "फरवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर",
             "नवंबर", "दिसंबर"]
MONTHS_MR = ["जानेवारी", "फेब्रुवारी", "मार्च", "एप्रिल", "मे", "जून", "जुलै", "ऑगस्ट", "सप्टेंबर", "ऑक्टोबर",
             "नोव्हेंबर", "डिसेंबर"]
DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

#: scheme names (made up): English, Hindi, Marathi
SCHEMES: list[tuple[str, str, str]] = [
    ("Crop Insurance Scheme", "फसल बीमा योजना", "पीक विमा योजना"),
    ("Drip Irrigation Subsidy", "ड्रिप सिंचाई अनुदान", "ठिबक सिंचन अनुदान"),
    ("Farm Pond Scheme", "खेत तालाब योजना", "शेततळे योजना"),
    ("Seed Distribution Scheme", "बीज वितरण योजना", "बियाणे वितरण योजना"),
    ("Farm Machinery Subsidy", "कृषि यंत्र अनुदान", "कृषी यंत्र अनुदान"),
    ("Soil Health Card Drive", "मृदा स्वास्थ्य कार्ड अभियान", "मृदा आरोग्य पत्रिका मोहीम"),
    ("Organic Farming Grant", "जैविक खेती अनुदान", "सेंद्रिय शेती अनुदान"),
    ("Horticulture Plantation Scheme", "बागवानी रोपण योजना", "फळबाग लागवड योजना"),
    ("Solar Pump Scheme", "सौर पंप योजना", "सौर कृषी पंप योजना"),
    ("Polyhouse Subsidy", "पॉलीहाउस अनुदान", "पॉलीहाऊस अनुदान"),
    ("Cattle Shed Grant", "पशु शेड अनुदान", "गोठा अनुदान"),
    ("Sprinkler Set Subsidy", "स्प्रिंकलर सेट अनुदान", "तुषार संच अनुदान"),
]
YEARS = list(range(2019, 2027))
